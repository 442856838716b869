extension Duration {
    /// The duration in milliseconds, as a Double.
    public var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
