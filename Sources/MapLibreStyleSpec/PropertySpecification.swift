/// What the style specification says about a property: its value type and which
/// expressions it accepts (data-driven or not, zoom-dependent, interpolatable).
public struct PropertySpecification: Sendable {
    /// "color", "number", "string", "boolean", "enum", "array", "formatted", "resolvedImage", …
    public var type: String?
    /// The item type of an "array" property.
    public var value: String?
    /// The fixed length of an "array" property.
    public var length: Int?
    /// "data-driven", "cross-faded-data-driven", "data-constant", "constant", "color-ramp", …
    public var propertyType: String
    public var interpolated: Bool
    /// Inputs the property's expressions may use ("zoom", "feature", …).
    public var parameters: [String]
    public var defaultValue: JSONValue?
    /// Whether legacy `{token}` strings are expanded.
    public var tokens: Bool
    /// The allowed values of an "enum" property.
    public var enumValues: [String]

    public init(type: String? = nil, value: String? = nil, length: Int? = nil, propertyType: String = "data-driven",
                interpolated: Bool = true, parameters: [String] = ["zoom", "feature"], defaultValue: JSONValue? = nil,
                tokens: Bool = false, enumValues: [String] = []) {
        self.type = type
        self.value = value
        self.length = length
        self.propertyType = propertyType
        self.interpolated = interpolated
        self.parameters = parameters
        self.defaultValue = defaultValue
        self.tokens = tokens
        self.enumValues = enumValues
    }

    /// From the specification's JSON for the property (v8.json's entry).
    public init(json: JSONValue) {
        self.init()
        type = json["type"]?.string
        value = json["value"]?.string
        length = json["length"]?.number.map { Int($0) }
        propertyType = json["property-type"]?.string ?? "data-driven"
        if let e = json["expression"] {
            interpolated = e["interpolated"] == .bool(true)
            parameters = e["parameters"]?.array?.compactMap(\.string) ?? []
        }
        defaultValue = json["default"]
        tokens = json["tokens"] == .bool(true)
        if case .object(let o)? = json["values"] {
            enumValues = o.keys
        } else if case .array(let a)? = json["values"] {
            enumValues = a.compactMap(\.string)
        }
    }

    /// The type expressions for this property must evaluate to.
    public var expectedType: ExpressionType? {
        func simple(_ name: String?) -> ExpressionType? {
            switch name {
            case "color": return .color
            case "string", "enum": return .string
            case "number": return .number
            case "boolean": return .boolean
            case "formatted": return .formatted
            case "padding": return .padding
            case "numberArray": return .numberArray
            case "colorArray": return .colorArray
            case "projectionDefinition": return .projectionDefinition
            case "resolvedImage": return .resolvedImage
            case "variableAnchorOffsetCollection": return .variableAnchorOffsetCollection
            default: return nil
            }
        }
        if type == "array" { return .array(simple(value) ?? .value, length: length) }
        return simple(type)
    }

    var supportsDataExpressions: Bool { propertyType == "data-driven" || propertyType == "cross-faded-data-driven" }
    var supportsZoomExpressions: Bool { parameters.contains("zoom") }
}
