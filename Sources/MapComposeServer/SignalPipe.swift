import Foundation

/// Signals as an async sequence: each handler writes the signal's number to a pipe (all a
/// handler may safely do), and a thread reads them back. Works whatever thread the kernel
/// picks to take the signal.
final class SignalPipe: @unchecked Sendable {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    let signals: AsyncStream<Int32>

    private init(signals: AsyncStream<Int32>) { self.signals = signals }

    /// Installs handlers for `numbers` (replacing any others) and returns the stream of arrivals.
    static func install(_ numbers: [Int32]) -> SignalPipe {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return SignalPipe(signals: AsyncStream { $0.finish() }) }
        writeEnd = ends[1]
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let readEnd = ends[0]
        let reader = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 { continuation.yield(Int32(byte)) }
            continuation.finish()
        }
        reader.start()
        for number in numbers {
            var action = sigaction()
            #if os(Linux)
            action.__sigaction_handler.sa_handler = { signal in
                var byte = UInt8(truncatingIfNeeded: signal)
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
            #else
            action.__sigaction_u.__sa_handler = { signal in
                var byte = UInt8(truncatingIfNeeded: signal)
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        return SignalPipe(signals: stream)
    }
}
