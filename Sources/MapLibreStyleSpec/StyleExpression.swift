/// A property's expression, compiled: its root node plus what it depends on, so renderers
/// can evaluate constant and camera-only expressions once per frame and the rest per feature.
public final class StyleExpression {
    /// What an expression depends on.
    public enum Kind: String, Sendable {
        /// Neither zoom nor feature.
        case constant
        /// The feature only.
        case source
        /// The zoom only.
        case camera
        /// Zoom and feature.
        case composite
    }

    public let root: ExpressionNode
    public let kind: Kind
    /// The top-level zoom `step` or `interpolate`, where the expression depends on zoom.
    public let zoomCurve: ExpressionNode?
    /// What `evaluate(_:fallback:)` returns where evaluation fails or yields null.
    public let defaultValue: Value?

    public var isFeatureConstant: Bool { kind == .constant || kind == .camera }
    public var isZoomConstant: Bool { kind == .constant || kind == .source }
    /// Whether the expression reads feature state.
    public var isStateDependent: Bool { !ConstantAnalysis.isStateConstant(root) }
    /// The type the expression evaluates to.
    public var type: ExpressionType { root.type }

    init(root: ExpressionNode, kind: Kind, zoomCurve: ExpressionNode?, defaultValue: Value?) {
        self.root = root
        self.kind = kind
        self.zoomCurve = zoomCurve
        self.defaultValue = defaultValue
    }

    /// Parses and type-checks an expression for a property described by `spec` (nil: no
    /// expected type, any inputs). Error keys are relative to the expression; `rootKey`
    /// places them in the style for messages.
    /// Filters pass `zoomOnlyInCurves: false`: like MapLibre's `createFilter`, they may read
    /// `zoom` anywhere (`["<=", ["get", "min_zoom"], ["zoom"]]`), where properties may read it
    /// only as the input of a top-level `step` or `interpolate`.
    public static func parse(_ json: JSONValue, rootKey: String = "", spec: PropertySpecification? = nil,
                             zoomOnlyInCurves: Bool = true) -> Result<StyleExpression, ExpressionParsingErrors> {
        func fail(_ errors: [ExpressionParsingError]) -> Result<StyleExpression, ExpressionParsingErrors> {
            .failure(ExpressionParsingErrors(rootKey: rootKey, errors: errors))
        }
        let ctx = ParsingContext(expectedType: spec?.expectedType)
        guard let root = ctx.parse(json, annotation: spec?.type == "string" ? .coerce : nil) else { return fail(ctx.errors) }
        let featureConstant = ConstantAnalysis.isFeatureConstant(root)
        if let spec, !featureConstant, !spec.supportsDataExpressions {
            return fail([ExpressionParsingError(key: "", message: "data expressions not supported")])
        }
        let zoomConstant = ConstantAnalysis.isGlobalPropertyConstant(root, ["zoom"])
        if let spec, !zoomConstant, !spec.supportsZoomExpressions {
            return fail([ExpressionParsingError(key: "", message: "zoom expressions not supported")])
        }
        var curve: ExpressionNode?
        if !zoomOnlyInCurves {
            let kind: Kind = zoomConstant ? (featureConstant ? .constant : .source) : (featureConstant ? .camera : .composite)
            return .success(StyleExpression(root: root, kind: kind, zoomCurve: nil, defaultValue: spec.flatMap(defaultValue)))
        }
        switch findZoomCurve(root) {
        case .failure(let e): return fail([e])
        case .success(let c): curve = c
        }
        if curve == nil && !zoomConstant {
            return fail([ExpressionParsingError(key: "", message: "\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression.")])
        }
        if curve is Interpolate, let spec, !spec.interpolated {
            return fail([ExpressionParsingError(key: "", message: "\"interpolate\" expressions cannot be used with this property")])
        }
        let kind: Kind = curve == nil ? (featureConstant ? .constant : .source) : (featureConstant ? .camera : .composite)
        return .success(StyleExpression(root: root, kind: kind, zoomCurve: curve, defaultValue: spec.flatMap(defaultValue)))
    }

    /// Compiles a property value as a style holds it: an expression, a legacy function
    /// (converted first) or a constant (`"red"` for a color property, `[1, 2]` for an array).
    public static func parseProperty(_ value: JSONValue, rootKey: String = "", spec: PropertySpecification) -> Result<StyleExpression, ExpressionParsingErrors> {
        if ExpressionRegistry.isExpression(value) { return parse(value, rootKey: rootKey, spec: spec) }
        if LegacyFunction.isFunction(value) { return parse(LegacyFunction.convert(value, spec: spec), rootKey: rootKey, spec: spec) }
        return parse(["literal", value], rootKey: rootKey, spec: spec)
    }

    /// Evaluates the expression; throws `ExpressionEvaluationError` on a run-time error.
    public func evaluate(_ ctx: EvaluationContext) throws -> Value { try root.evaluate(ctx) }

    /// Evaluates the expression, giving the property's default where it fails or yields
    /// null or NaN (as renderers do).
    public func evaluate(_ ctx: EvaluationContext, fallback: Value) -> Value {
        guard let v = try? root.evaluate(ctx) else { return defaultValue ?? fallback }
        switch v {
        case .null: return defaultValue ?? fallback
        case .number(let d) where d.isNaN: return defaultValue ?? fallback
        default: return v
        }
    }

    private static func defaultValue(_ spec: PropertySpecification) -> Value? {
        guard let d = spec.defaultValue else { return nil }
        if spec.type == "color", case .string(let s) = d { return Color.parse(s).map(Value.color) }
        return Value(d)
    }

    private static let zoomMisuse = "\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression."

    /// The zoom `step`/`interpolate` at the top (inside `let`s and `coalesce`s), or the error
    /// for zoom used anywhere else or in two curves.
    static func findZoomCurve(_ e: ExpressionNode) -> Result<ExpressionNode?, ExpressionParsingError> {
        var result: ExpressionNode?
        if let l = e as? Let {
            switch findZoomCurve(l.result) {
            case .failure(let err): return .failure(err)
            case .success(let c): result = c
            }
        } else if let c = e as? Coalesce {
            for arg in c.args {
                switch findZoomCurve(arg) {
                case .failure(let err): return .failure(err)
                case .success(let found): result = found
                }
                if result != nil { break }
            }
        } else if let s = e as? Step, (s.input as? CompoundExpression)?.name == "zoom" {
            result = s
        } else if let i = e as? Interpolate, (i.input as? CompoundExpression)?.name == "zoom" {
            result = i
        }
        var failure: ExpressionParsingError?
        e.forEachChild { child in
            guard failure == nil else { return }
            switch findZoomCurve(child) {
            case .failure(let err):
                failure = err
            case .success(let found):
                if result == nil, found != nil {
                    failure = ExpressionParsingError(key: "", message: zoomMisuse)
                } else if let r = result, let f = found, r !== f {
                    failure = ExpressionParsingError(key: "", message: "Only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression.")
                }
            }
        }
        if let failure { return .failure(failure) }
        return .success(result)
    }
}
