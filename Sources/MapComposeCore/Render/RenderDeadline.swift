/// The moment by which a render must have its tiles: requests still waiting then are given
/// up, their tiles drawn by fallback from what is at hand, and the map is written with a
/// warning. A task-local value, so every fetch a render starts (however deep) sees its own.
public enum RenderDeadline {
    /// The deadline of the render the current task works for; nil for none.
    @TaskLocal public static var current: ContinuousClock.Instant?

    /// Seconds left before the current deadline (negative once past); nil without one.
    public static var secondsLeft: Double? {
        guard let current else { return nil }
        let left = ContinuousClock.now.duration(to: current).components
        return Double(left.seconds) + Double(left.attoseconds) * 1e-18
    }

    /// True once the current deadline has passed.
    public static var hasPassed: Bool { (secondsLeft ?? 1) <= 0 }
}
