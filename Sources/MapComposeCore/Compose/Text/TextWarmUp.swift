import Foundation

/// Sets text up ahead of need, while the render it is for reads its style and data, so its first
/// label does not wait for it (a few milliseconds of a small map's start-up): fontconfig's
/// configuration, HarfBuzz and the default font for plain lines (see `StraightTextLine`), and
/// Pango as well when asked to or when a text the render is known to draw is not plain.
/// Otherwise Pango is loaded when a line first needs it.
public final class TextWarmUp: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let samples: [String]
    private let pango: Bool

    /// A warm-up that has not begun: `run` it on a thread that has nothing else to do. `samples`
    /// are texts the render will draw (or text that holds them, such as overlay arguments): each
    /// is set, so Pango is loaded now if one of them needs it; `pango` sets Pango up in any case.
    public init(samples: [String] = [], pango: Bool = false) {
        self.samples = samples
        self.pango = pango
    }

    /// Sets text up on the calling thread. A thread started while the dynamic loader maps
    /// HarfBuzz or Pango and their libraries waits until it is done (glibc's pthread_create takes
    /// the loader's TLS lock, which dlopen holds), so the CPU pool's helpers are started first and
    /// the render's first tiles are not held back.
    public func run() {
        CPUPool.shared.startHelpers()
        let font = TextFont(size: 10)
        for text in ["Natural Earth"] + samples {
            _ = try? StraightTextLine(text, font: font)
        }
        if pango { _ = try? TextLine("Natural Earth", font: font) }
        done.signal()
    }

    /// Starts setting text up on a thread of its own.
    public static func start(samples: [String] = [], pango: Bool = false) -> TextWarmUp {
        let warmUp = TextWarmUp(samples: samples, pango: pango)
        Thread { warmUp.run() }.start()
        return warmUp
    }

    /// Waits until set-up is over (so that a process does not exit while it runs).
    public func wait() {
        done.wait()
        done.signal()
    }
}
