import Foundation

/// The path of the running executable, symbolic links resolved: what `/proc/self/exe` links
/// to, or `Bundle.main`'s answer where there is no `/proc`. Foundation's `Bundle.main` lists
/// the executable's whole folder (twice) before it answers: thousands of names read on every
/// run of a binary installed in /usr/bin.
public enum ExecutableLocation {
    /// The executable's URL; nil when it cannot be found.
    public static let url: URL? = {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let length = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count) }
        }
        // A path as long as the buffer may have been cut short.
        if length > 0, length < buffer.count {
            return URL(fileURLWithPath: String(decoding: buffer[..<length], as: UTF8.self))
        }
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
    }()
}
