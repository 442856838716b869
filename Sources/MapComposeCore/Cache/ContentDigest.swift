import Foundation

/// A short, stable fingerprint of bytes (64-bit FNV-1a), for identities of sources defined by
/// their content. Not cryptographic: it names, it does not protect.
public enum ContentDigest {
    public static func hex(of data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Through the bytes themselves: Data's iterator costs several times the hash.
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }
}
