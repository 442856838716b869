import Foundation

/// Sets text up ahead of need: fontconfig's configuration, Pango's font map and the default
/// font, loaded while the render it is for reads its style and data, so its first label does
/// not wait for them (a few milliseconds of a small map's start-up).
public final class TextWarmUp: Sendable {
    private let done = DispatchSemaphore(value: 0)

    /// A warm-up that has not begun: `run` it on a thread that has nothing else to do.
    public init() {}

    /// Sets text up on the calling thread. A thread started while the dynamic loader maps
    /// Pango and its libraries waits until it is done (glibc's pthread_create takes the
    /// loader's TLS lock, which dlopen holds), so the CPU pool's helpers are started first and
    /// the render's first tiles are not held back.
    public func run() {
        CPUPool.shared.startHelpers()
        _ = try? TextLine("Natural Earth", font: TextFont(size: 10))
        done.signal()
    }

    /// Starts setting text up on a thread of its own.
    public static func start() -> TextWarmUp {
        let warmUp = TextWarmUp()
        Thread { warmUp.run() }.start()
        return warmUp
    }

    /// Waits until set-up is over (so that a process does not exit while it runs).
    public func wait() {
        done.wait()
        done.signal()
    }
}
