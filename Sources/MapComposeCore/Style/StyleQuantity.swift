import Foundation

/// Durations (`90s`, `30m`, `12h`, `7d`, `2w`, or plain seconds) and byte sizes (`512MB`,
/// `2GiB`, `100k`, or plain bytes) as written in styles and on the command line.
public enum StyleQuantity {
    /// Seconds of a duration; nil when not one or not finite and non-negative.
    public static func seconds(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600), ("d", 86_400), ("w", 604_800)]
        return parse(text, units: units, plainUnit: 1)
    }

    /// Bytes of a size (powers of 1024 for both `MB` and `MiB`, as disk tools count them).
    public static func bytes(_ text: String) -> Int? {
        let k = 1024.0, m = k * k, g = m * k, t = g * k
        let units: [(String, Double)] = [("kib", k), ("kb", k), ("k", k), ("mib", m), ("mb", m), ("m", m),
                                         ("gib", g), ("gb", g), ("g", g), ("tib", t), ("tb", t), ("b", 1)]
        guard let value = parse(text.lowercased(), units: units, plainUnit: 1), value < 9e18 else { return nil }
        return Int(value)
    }

    private static func parse(_ text: String, units: [(String, Double)], plainUnit: Double) -> Double? {
        let trimmed = text.trimmingSpaces
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            let number = trimmed.dropLast(suffix.count).trimmingSpaces
            guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
            return value * factor
        }
        guard let value = Double(trimmed), value.isFinite, value >= 0 else { return nil }
        return value * plainUnit
    }
}

extension StyleMapping {
    /// A duration in seconds, or nil with a problem logged.
    func duration(_ key: String) -> Double? {
        guard let node = value(key) else { return nil }
        guard let text = node.scalar?.string, let seconds = StyleQuantity.seconds(text) else {
            log.add(node, path(key), "expected a duration such as 30s, 15m, 12h or 7d, got \(Self.show(node))")
            return nil
        }
        return seconds
    }

    /// A byte size, or nil with a problem logged.
    func byteSize(_ key: String) -> Int? {
        guard let node = value(key) else { return nil }
        guard let text = node.scalar?.string, let bytes = StyleQuantity.bytes(text), bytes > 0 else {
            log.add(node, path(key), "expected a size such as 512MB or 2GB, got \(Self.show(node))")
            return nil
        }
        return bytes
    }
}
