extension String {
    /// Most characters of a user's value that a message quotes.
    public static let messageExcerptLimit = 100

    /// The text as a message quotes it: whole when short, else its first
    /// `messageExcerptLimit` characters and "… (N characters)", so a huge value never
    /// floods a terminal or a report.
    public var messageExcerpt: String {
        var end = startIndex
        guard formIndex(&end, offsetBy: Self.messageExcerptLimit, limitedBy: endIndex), end != endIndex else { return self }
        return "\(self[..<end])… (\(count) characters)"
    }
}
