import Foundation

/// Sets text up ahead of need, on a thread of its own: fontconfig's configuration, Pango's font
/// map and the default font, loaded while the render it is for reads its style and data on
/// other cores, so its first label does not wait for them (a few milliseconds of a small map's
/// start-up).
public final class TextWarmUp: Sendable {
    private let done = DispatchSemaphore(value: 0)

    /// Starts setting text up.
    public static func start() -> TextWarmUp {
        let warmUp = TextWarmUp()
        let thread = Thread { [done = warmUp.done] in
            _ = try? TextLine("Natural Earth", font: TextFont(size: 10))
            done.signal()
        }
        thread.start()
        return warmUp
    }

    /// Waits until set-up is over (so that a process does not exit while it runs).
    public func wait() {
        done.wait()
        done.signal()
    }
}
