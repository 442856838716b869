import Foundation

/// `["number-format", number, {locale, currency, unit, min-fraction-digits, max-fraction-digits}]`:
/// a number as localized text (decimal, currency or unit style).
final class NumberFormat: ExpressionNode {
    let type = ExpressionType.string
    let number: ExpressionNode
    let locale: ExpressionNode?
    let currency: ExpressionNode?
    let unit: ExpressionNode?
    let minFractionDigits: ExpressionNode?
    let maxFractionDigits: ExpressionNode?

    init(number: ExpressionNode, locale: ExpressionNode?, currency: ExpressionNode?, unit: ExpressionNode?,
         minFractionDigits: ExpressionNode?, maxFractionDigits: ExpressionNode?) {
        self.number = number
        self.locale = locale
        self.currency = currency
        self.unit = unit
        self.minFractionDigits = minFractionDigits
        self.maxFractionDigits = maxFractionDigits
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        body(number)
        for e in [locale, currency, unit, minFractionDigits, maxFractionDigits] { if let e { body(e) } }
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 3 else { return ctx.error("Expected two arguments.") }
        guard let number = ctx.parse(args[1], 1, .number) else { return nil }
        guard case .object(let options) = args[2] else { return ctx.error("NumberFormat options argument must be an object.") }
        var parsed: [String: ExpressionNode] = [:]
        for (name, type) in [("locale", ExpressionType.string), ("currency", .string), ("unit", .string)] {
            if let v = options[name], Value(v).isTruthy {
                guard let p = ctx.parse(v, 1, type) else { return nil }
                parsed[name] = p
            }
        }
        if parsed["currency"] != nil && parsed["unit"] != nil {
            return ctx.error("NumberFormat options `currency` and `unit` are mutually exclusive")
        }
        for name in ["min-fraction-digits", "max-fraction-digits"] {
            if let v = options[name], Value(v).isTruthy {
                guard let p = ctx.parse(v, 1, .number) else { return nil }
                parsed[name] = p
            }
        }
        return NumberFormat(number: number, locale: parsed["locale"], currency: parsed["currency"], unit: parsed["unit"],
                            minFractionDigits: parsed["min-fraction-digits"], maxFractionDigits: parsed["max-fraction-digits"])
    }

    /// Unit symbols for the simple units of ECMA-402 that styles use.
    private static let unitSymbols: [String: (symbol: String, spaced: Bool)] = [
        "meter": ("m", true), "kilometer": ("km", true), "centimeter": ("cm", true), "millimeter": ("mm", true),
        "mile": ("mi", true), "foot": ("ft", true), "yard": ("yd", true), "inch": ("in", true),
        "kilobyte": ("kB", true), "megabyte": ("MB", true), "gigabyte": ("GB", true), "byte": ("byte", true),
        "celsius": ("°C", false), "fahrenheit": ("°F", false), "degree": ("deg", true), "percent": ("%", false),
        "second": ("sec", true), "minute": ("min", true), "hour": ("hr", true), "kilogram": ("kg", true),
        "gram": ("g", true), "liter": ("L", true), "kilometer-per-hour": ("km/h", true), "mile-per-hour": ("mph", true),
    ]

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let value = try number.number(ctx)
        let formatter = NumberFormatter()
        formatter.locale = LocaleTag.locale(try locale?.string(ctx))
        formatter.numberStyle = .decimal
        var unitSuffix = ""
        if let currency {
            formatter.numberStyle = .currency
            formatter.currencyCode = try currency.string(ctx)
        } else if let unit {
            let u = try unit.string(ctx)
            let s = NumberFormat.unitSymbols[u] ?? (u, true)
            unitSuffix = (s.spaced ? " " : "") + s.symbol
        }
        // ECMA-402 allows 0 to 100 fraction digits; NaN counts as 0.
        func digits(_ e: ExpressionNode) throws -> Int {
            let d = try e.number(ctx)
            return d.isNaN ? 0 : Int(min(max(d, 0), 100))
        }
        let minDigits = try minFractionDigits.map(digits)
        let maxDigits = try maxFractionDigits.map(digits)
        if currency != nil && minDigits == nil && maxDigits == nil || !value.isFinite {
            return .string((formatter.string(from: NSNumber(value: value)) ?? JavaScriptNumber.string(value)) + unitSuffix)
        }
        // Fraction digits as ECMA-402 resolves them (decimal: 0...3).
        let lower = minDigits ?? (currency == nil ? 0 : formatter.minimumFractionDigits)
        let upper = max(maxDigits ?? max(currency == nil ? 3 : formatter.maximumFractionDigits, lower), lower)
        return .string(NumberFormat.grouped(value, minDigits: lower, maxDigits: upper, formatter: formatter) + unitSuffix)
    }

    /// The number rounded half away from zero to `maxDigits` decimals of its shortest decimal
    /// form, padded to `minDigits`, with the locale's separators (and currency, if any).
    static func grouped(_ value: Double, minDigits: Int, maxDigits: Int, formatter: NumberFormatter) -> String {
        var decimal = Decimal(string: JavaScriptNumber.plainDecimal(abs(value))) ?? Decimal(abs(value))
        var rounded = Decimal()
        NSDecimalRound(&rounded, &decimal, min(maxDigits, 100), .plain)
        let text = "\(rounded)"
        var intPart = Substring(text), fracPart: Substring = ""
        if let dot = text.firstIndex(of: ".") {
            intPart = text[..<dot]
            fracPart = text[text.index(after: dot)...]
        }
        var frac = String(fracPart)
        while frac.count > minDigits, frac.hasSuffix("0") { frac.removeLast() }
        while frac.count < minDigits { frac += "0" }
        let grouping = formatter.groupingSeparator ?? ","
        var groupedInt = ""
        for (i, c) in intPart.enumerated() {
            if i > 0, (intPart.count - i) % 3 == 0 { groupedInt += grouping }
            groupedInt.append(c)
        }
        var body = groupedInt + (frac.isEmpty ? "" : (formatter.decimalSeparator ?? ".") + frac)
        if value < 0, rounded != 0 { body = "-" + body }
        guard formatter.numberStyle == .currency else { return body }
        // Currency: the formatter's own text for 0 gives the symbol's place.
        formatter.minimumFractionDigits = 0
        formatter.maximumFractionDigits = 0
        let zero = formatter.string(from: 0) ?? "0"
        return zero.replacingOccurrences(of: "0", with: body)
    }
}
