import MapLibreStyleSpec

/// The paint and layout properties of the MapLibre layer types mapcompose draws, as the style
/// specification (v8) describes them: value type, default, and which expressions they accept.
enum MapLibreProperties {
    /// What the specification says of a property, and whether it is a layout property.
    struct Entry {
        let spec: PropertySpecification
        let layout: Bool
    }

    private static func number(_ value: Double, dataDriven: Bool = true, layout: Bool = false) -> Entry {
        Entry(spec: PropertySpecification(type: "number", propertyType: dataDriven ? "data-driven" : "data-constant",
                                          interpolated: true, parameters: dataDriven ? ["zoom", "feature"] : ["zoom"],
                                          defaultValue: .double(value)), layout: layout)
    }

    private static func color(_ value: String, dataDriven: Bool = true) -> Entry {
        Entry(spec: PropertySpecification(type: "color", propertyType: dataDriven ? "data-driven" : "data-constant",
                                          interpolated: true, parameters: dataDriven ? ["zoom", "feature"] : ["zoom"],
                                          defaultValue: .string(value)), layout: false)
    }

    private static func optionalColor() -> Entry {
        Entry(spec: PropertySpecification(type: "color", propertyType: "data-driven", interpolated: true,
                                          parameters: ["zoom", "feature"]), layout: false)
    }

    /// A sprite image name that may vary by feature (`{token}`s are read in layout properties).
    private static func image(layout: Bool) -> Entry {
        Entry(spec: PropertySpecification(type: "resolvedImage", propertyType: "data-driven", interpolated: false,
                                          parameters: ["zoom", "feature"], tokens: layout), layout: layout)
    }

    private static func choice(_ values: [String], _ value: String, dataDriven: Bool = false, layout: Bool) -> Entry {
        Entry(spec: PropertySpecification(type: "enum", propertyType: dataDriven ? "data-driven" : "data-constant",
                                          interpolated: false, parameters: dataDriven ? ["zoom", "feature"] : ["zoom"],
                                          defaultValue: .string(value), enumValues: values), layout: layout)
    }

    /// A boolean that does not vary by feature.
    private static func flag(_ value: Bool, layout: Bool) -> Entry {
        Entry(spec: PropertySpecification(type: "boolean", propertyType: "data-constant", interpolated: false,
                                          parameters: ["zoom"], defaultValue: .bool(value)), layout: layout)
    }

    /// An `[x, y]` offset in pixels that may vary by feature (layout).
    private static let featureOffset = Entry(
        spec: PropertySpecification(type: "array", value: "number", length: 2, propertyType: "data-driven",
                                    interpolated: true, parameters: ["zoom", "feature"], defaultValue: [0, 0]),
        layout: true)

    private static let translate = Entry(
        spec: PropertySpecification(type: "array", value: "number", length: 2, propertyType: "data-constant",
                                    interpolated: true, parameters: ["zoom"], defaultValue: [0, 0]), layout: false)
    private static let translateAnchor = choice(["map", "viewport"], "map", layout: false)

    /// Properties drawn, by layer type.
    static let drawn: [String: [String: Entry]] = [
        "background": [
            "background-color": color("#000000", dataDriven: false),
            "background-opacity": number(1, dataDriven: false),
            "background-pattern": image(layout: false),
        ],
        "fill": [
            "fill-antialias": flag(true, layout: false),
            "fill-opacity": number(1),
            "fill-color": color("#000000"),
            "fill-outline-color": optionalColor(),
            "fill-pattern": image(layout: false),
            "fill-translate": translate,
            "fill-translate-anchor": translateAnchor,
            "fill-sort-key": number(0, layout: true),
        ],
        "line": [
            "line-cap": choice(["butt", "round", "square"], "butt", layout: true),
            "line-join": choice(["bevel", "round", "miter"], "miter", dataDriven: true, layout: true),
            "line-miter-limit": number(2, dataDriven: false, layout: true),
            "line-sort-key": number(0, layout: true),
            "line-opacity": number(1),
            "line-color": color("#000000"),
            "line-width": number(1),
            "line-gap-width": number(0),
            "line-offset": number(0),
            "line-blur": number(0),
            "line-pattern": image(layout: false),
            "line-dasharray": Entry(spec: PropertySpecification(type: "array", value: "number", propertyType: "data-constant",
                                                                interpolated: false, parameters: ["zoom"]), layout: false),
            "line-translate": translate,
            "line-translate-anchor": translateAnchor,
            // A colour ramp: read along each line by `line-progress` only.
            "line-gradient": Entry(spec: PropertySpecification(type: "color", propertyType: "color-ramp", interpolated: true,
                                                               parameters: ["line-progress"]), layout: false),
        ],
        "circle": [
            "circle-sort-key": number(0, layout: true),
            "circle-radius": number(5),
            "circle-color": color("#000000"),
            "circle-opacity": number(1),
            "circle-stroke-width": number(0),
            "circle-blur": number(0),
            "circle-stroke-color": color("#000000"),
            "circle-stroke-opacity": number(1),
            "circle-translate": translate,
            "circle-translate-anchor": translateAnchor,
        ],
        "raster": [
            "raster-opacity": number(1, dataDriven: false),
            "raster-hue-rotate": number(0, dataDriven: false),
            "raster-saturation": number(0, dataDriven: false),
            "raster-contrast": number(0, dataDriven: false),
            "raster-brightness-min": number(0, dataDriven: false),
            "raster-brightness-max": number(1, dataDriven: false),
        ],
        "symbol": [
            "symbol-placement": choice(["point", "line", "line-center"], "point", layout: true),
            "symbol-sort-key": number(0, layout: true),
            "symbol-z-order": choice(["auto", "viewport-y", "source"], "auto", layout: true),
            "symbol-spacing": number(250, dataDriven: false, layout: true),
            "text-field": Entry(spec: PropertySpecification(type: "formatted", propertyType: "data-driven", interpolated: false,
                                                            parameters: ["zoom", "feature"], defaultValue: "",
                                                            tokens: true), layout: true),
            "text-font": Entry(spec: PropertySpecification(type: "array", value: "string", propertyType: "data-driven",
                                                           interpolated: false, parameters: ["zoom", "feature"],
                                                           defaultValue: ["Open Sans Regular", "Arial Unicode MS Regular"]),
                               layout: true),
            "text-size": number(16, layout: true),
            "text-anchor": choice(["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left",
                                   "bottom-right"], "center", dataDriven: true, layout: true),
            "text-offset": featureOffset,
            "text-justify": choice(["auto", "left", "center", "right"], "center", dataDriven: true, layout: true),
            "text-variable-anchor": Entry(spec: PropertySpecification(type: "array", value: "string",
                                                                      propertyType: "data-constant", interpolated: false,
                                                                      parameters: ["zoom"],
                                                                      enumValues: MapLibrePainter.anchorNames.sorted()),
                                          layout: true),
            "text-radial-offset": number(0, layout: true),
            "text-writing-mode": Entry(spec: PropertySpecification(type: "array", value: "string",
                                                                   propertyType: "data-constant", interpolated: false,
                                                                   parameters: ["zoom"], enumValues: ["horizontal", "vertical"]),
                                       layout: true),
            "text-variable-anchor-offset": Entry(spec: PropertySpecification(type: "variableAnchorOffsetCollection",
                                                                             propertyType: "data-driven", interpolated: true,
                                                                             parameters: ["zoom", "feature"]), layout: true),
            "text-transform": choice(["none", "uppercase", "lowercase"], "none", dataDriven: true, layout: true),
            "text-padding": number(2, dataDriven: false, layout: true),
            "text-line-height": number(1.2, dataDriven: false, layout: true),
            "text-max-width": number(10, layout: true),
            "text-letter-spacing": number(0, layout: true),
            "text-max-angle": number(45, dataDriven: false, layout: true),
            "text-keep-upright": flag(true, layout: true),
            "text-allow-overlap": flag(false, layout: true),
            "text-overlap": Entry(spec: PropertySpecification(type: "enum", propertyType: "data-constant", interpolated: false,
                                                              parameters: ["zoom"],
                                                              enumValues: ["never", "always", "cooperative"]), layout: true),
            "text-ignore-placement": flag(false, layout: true),
            "icon-image": image(layout: true),
            "icon-size": number(1, layout: true),
            "icon-anchor": choice(["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left",
                                   "bottom-right"], "center", dataDriven: true, layout: true),
            "icon-offset": featureOffset,
            "icon-rotate": number(0, layout: true),
            "icon-rotation-alignment": choice(["map", "viewport", "auto"], "auto", layout: true),
            "icon-allow-overlap": flag(false, layout: true),
            "icon-keep-upright": flag(false, layout: true),
            "icon-overlap": Entry(spec: PropertySpecification(type: "enum", propertyType: "data-constant", interpolated: false,
                                                              parameters: ["zoom"],
                                                              enumValues: ["never", "always", "cooperative"]), layout: true),
            "icon-padding": number(2, layout: true),
            "icon-text-fit": choice(["none", "width", "height", "both"], "none", layout: true),
            "icon-text-fit-padding": Entry(spec: PropertySpecification(type: "array", value: "number", length: 4,
                                                                       propertyType: "data-constant", interpolated: true,
                                                                       parameters: ["zoom"], defaultValue: [0, 0, 0, 0]),
                                           layout: true),
            "icon-optional": flag(false, layout: true),
            "text-optional": flag(false, layout: true),
            "text-rotate": number(0, layout: true),
            "text-rotation-alignment": choice(["map", "viewport", "viewport-glyph", "auto"], "auto", layout: true),
            "icon-ignore-placement": flag(false, layout: true),
            "icon-opacity": number(1),
            "icon-color": color("#000000"),
            "icon-halo-color": color("rgba(0, 0, 0, 0)"),
            "icon-halo-width": number(0),
            "icon-halo-blur": number(0),
            "text-color": color("#000000"),
            "text-opacity": number(1),
            "text-halo-color": color("rgba(0, 0, 0, 0)"),
            "text-halo-width": number(0),
            "text-halo-blur": number(0),
            "text-translate": translate,
            "text-translate-anchor": translateAnchor,
            "icon-translate": translate,
            "icon-translate-anchor": translateAnchor,
        ],
    ]

    /// Properties that change nothing in a still image of a flat map (transitions, fades,
    /// pitch behaviour), read without a warning.
    static let noEffect: Set<String> = [
        "raster-fade-duration", "raster-resampling", "circle-pitch-scale", "circle-pitch-alignment", "line-round-limit",
        "visibility", "text-pitch-alignment", "icon-pitch-alignment",
        // Labels are placed once for the whole map, never cut at a tile's edge.
        "symbol-avoid-edges",
    ]

    /// The layer types drawn.
    static let layerTypes: Set<String> = ["background", "fill", "line", "circle", "raster", "symbol"]
}
