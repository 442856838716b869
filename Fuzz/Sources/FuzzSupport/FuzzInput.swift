import CLibFuzzer
import Dispatch
import Foundation

/// Helpers shared by the fuzz targets.
public enum FuzzInput {
    /// The input as `Data` (libFuzzer may pass a null pointer for an empty input).
    public static func data(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Data {
        guard let bytes, size > 0 else { return Data() }
        return Data(bytes: bytes, count: size)
    }

    /// Runs libFuzzer with this process's arguments on `testOneInput` and exits with its status.
    public static func runLibFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }

    /// Runs `body` on Swift's concurrency pool and waits for it (libFuzzer calls from a plain thread).
    public static func wait(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }
}
