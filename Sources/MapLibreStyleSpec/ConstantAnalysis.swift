/// What an expression depends on: the feature, the camera, feature state. Decides which
/// sub-expressions are folded to literals while parsing and what kind a property expression is.
enum ConstantAnalysis {
    /// Inputs from the renderer rather than the feature.
    static let globalInputs: Set<String> = [
        "zoom", "heatmap-density", "elevation", "line-progress", "accumulated", "is-supported-script",
    ]

    /// Whether `e` can be evaluated once while parsing: all its arguments are literals and it
    /// reads nothing from the feature or the renderer.
    static func isConstant(_ e: ExpressionNode) -> Bool {
        if let v = e as? Var { return isConstant(v.bound) }
        if let c = e as? CompoundExpression, c.name == "error" { return false }
        if e is CollatorExpression || e is Within || e is Distance || e is GlobalStateExpression { return false }
        let isAnnotation = e is TypeAnnotation
        var childrenConstant = true
        e.forEachChild { child in
            guard childrenConstant else { return }
            childrenConstant = isAnnotation ? isConstant(child) : child is Literal
        }
        return childrenConstant && isFeatureConstant(e) && isGlobalPropertyConstant(e, globalInputs)
    }

    /// Whether `e` reads nothing from the feature (properties, id, geometry, state).
    static func isFeatureConstant(_ e: ExpressionNode) -> Bool {
        if let c = e as? CompoundExpression {
            switch c.name {
            case "get", "has": if c.args.count == 1 { return false }
            case "feature-state", "properties", "geometry-type", "id": return false
            default: if c.name.hasPrefix("filter-") { return false }
            }
        }
        if e is Within || e is Distance { return false }
        var result = true
        e.forEachChild { child in
            if result && !isFeatureConstant(child) { result = false }
        }
        return result
    }

    /// Whether `e` reads no feature state.
    static func isStateConstant(_ e: ExpressionNode) -> Bool {
        if let c = e as? CompoundExpression, c.name == "feature-state" { return false }
        var result = true
        e.forEachChild { child in
            if result && !isStateConstant(child) { result = false }
        }
        return result
    }

    /// Whether `e` uses none of the named renderer inputs.
    static func isGlobalPropertyConstant(_ e: ExpressionNode, _ names: Set<String>) -> Bool {
        if let c = e as? CompoundExpression, names.contains(c.name) { return false }
        var result = true
        e.forEachChild { child in
            if result && !isGlobalPropertyConstant(child, names) { result = false }
        }
        return result
    }
}
