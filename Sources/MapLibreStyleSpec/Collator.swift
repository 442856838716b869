import Foundation

/// Locale-aware string comparison for `==`, `<`, … with a `collator` argument.
public struct Collator: Sendable, Equatable {
    public let caseSensitive: Bool
    public let diacriticSensitive: Bool
    public let locale: String?

    /// -1, 0 or 1 as `lhs` sorts before, with, or after `rhs`.
    public func compare(_ lhs: String, _ rhs: String) -> Int {
        var options: String.CompareOptions = []
        if !caseSensitive { options.insert(.caseInsensitive) }
        if !diacriticSensitive { options.insert(.diacriticInsensitive) }
        let result = lhs.compare(rhs, options: options, range: nil, locale: LocaleTag.locale(locale))
        switch result {
        case .orderedAscending: return -1
        case .orderedSame: return 0
        case .orderedDescending: return 1
        }
    }

    /// The locale comparisons use: the requested one, else `en-US`.
    public var resolvedLocale: String { locale ?? "en-US" }
}

/// `["collator", {"case-sensitive": …, "diacritic-sensitive": …, "locale": …}]`.
final class CollatorExpression: ExpressionNode {
    let type = ExpressionType.collator
    let caseSensitive: ExpressionNode
    let diacriticSensitive: ExpressionNode
    let locale: ExpressionNode?

    init(caseSensitive: ExpressionNode, diacriticSensitive: ExpressionNode, locale: ExpressionNode?) {
        self.caseSensitive = caseSensitive
        self.diacriticSensitive = diacriticSensitive
        self.locale = locale
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        body(caseSensitive)
        body(diacriticSensitive)
        if let locale { body(locale) }
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 2 else { return ctx.error("Expected one argument.") }
        guard case .object(let options) = args[1] else { return ctx.error("Collator options argument must be an object.") }
        guard let cs = ctx.parse(options["case-sensitive"] ?? false, 1, .boolean) else { return nil }
        guard let ds = ctx.parse(options["diacritic-sensitive"] ?? false, 1, .boolean) else { return nil }
        var locale: ExpressionNode?
        if let l = options["locale"], Value(l).isTruthy {
            guard let p = ctx.parse(l, 1, .string) else { return nil }
            locale = p
        }
        return CollatorExpression(caseSensitive: cs, diacriticSensitive: ds, locale: locale)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        .collator(Collator(caseSensitive: try caseSensitive.boolean(ctx), diacriticSensitive: try diacriticSensitive.boolean(ctx),
                           locale: try locale?.string(ctx)))
    }
}
