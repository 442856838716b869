import Testing
@testable import MapComposeCore

/// The built-in styles as drawn from their own 1:110m data, whether or not a world basemap is
/// installed on the machine the tests run on (which the built-in styles draw when it is).
enum BuiltInStyleData {
    static func load(_ name: String) throws -> MapStyle {
        let style = try #require(BuiltInStyle.named(name))
        return try StyleLoader.load(text: style.text, origin: .builtIn(style))
    }
}
