extension String {
    /// Decodes a NUL-terminated C message buffer as UTF-8.
    init(messageBuffer buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
