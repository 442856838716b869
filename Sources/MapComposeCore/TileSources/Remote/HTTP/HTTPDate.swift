import Foundation

/// The date format of HTTP headers (`Expires`, `Last-Modified`, `Retry-After`): RFC 9110's
/// IMF-fixdate, with the obsolete RFC 850 and asctime forms also read.
public enum HTTPDate {
    private static let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }

    /// The date `text` names, or nil when it is not an HTTP date.
    public static func parse(_ text: String) -> Date? {
        for format in formats {
            if let date = formatter(format).date(from: text) { return date }
        }
        return nil
    }

    /// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    public static func format(_ date: Date) -> String {
        formatter(formats[0]).string(from: date)
    }
}
