import ArgumentParser
import Foundation
import Testing
@testable import MapComposeCLI

/// A plain render's arguments are read without ArgumentParser (quicker start-up), exactly as
/// ArgumentParser reads them; everything else is left to ArgumentParser.
@Suite struct QuickRenderParseTests {
    private let subcommands = MapComposeCommand.namedSubcommandNames

    private func quick(_ arguments: [String]) -> RenderSettings? {
        RenderSettings.quickParse(arguments[...], subcommands: subcommands)
    }

    @Test func theSubcommandNamesSpelledOutAreArgumentParsersOwn() {
        #expect(MapComposeCommand.namedSubcommandNames == MapComposeCommand.namedSubcommands.compactMap { $0.configuration.commandName })
    }

    /// What ArgumentParser makes of the same arguments, parsed as the render command.
    private func parsed(_ arguments: [String]) throws -> RenderSettings {
        let rest = arguments.first == "render" ? Array(arguments.dropFirst()) : arguments
        return try RenderCommand.parse(rest).settings
    }

    @Test(arguments: [
        ["out.png"],
        ["render", "out.png"],
        ["--center", "51.5,-0.12", "--zoom", "12", "out.png"],
        ["out.png", "--center", "-33.9,151.2", "--zoom", "-0.5"],
        ["--center=-33.9,151.2", "--zoom=3.25", "--size=1024x768", "map.jpg", "--quality=75"],
        ["--style", "Styles/osm.yaml", "--bbox", "-11,49,2,61", "--padding", "20", "--fractional-zoom", "uk.png"],
        ["--bbox", "170,-20,-170,0", "--padding", "-3", "fiji.png"],
        ["--center", "48,10", "--zoom", "4.5", "--size", "1024x768", "--scale", "2", "--report", "report.json", "map.jpg", "--quality", "85"],
        ["--center", "48,10", "--zoom", "5", "-", "--format", "webp", "--lossless"],
        ["--center", "48,10", "--zoom", "5", "--report=-", "map.png"],
        ["--png-compression", "fast", "--center", "1,2", "--zoom", "3", "a.png"],
        ["--png-compression", "7", "--center", "1,2", "--zoom", "3", "a.png"],
        ["--marker", "51.5,-0.12,red,L", "--marker", "35.68,139.69,#2a9d8f,Tokyo", "--path", "51.47,-0.45;35.55,139.78;geodesic=true", "flight.png"],
        ["--polygon", "1,2;3,4;5,6", "--circle", "1,2,500;fill=none", "--text", "-1,2,Hi", "--overlay", "routes.geojson", "o.pdf"],
        ["--tile-memory", "0", "--strict", "--no-attribution", "-v", "--world-file", "--center", "1,2", "--zoom", "3", "x.png"],
        ["--verbose", "--offline", "--cache-dir", "/tmp/c", "--center", "1,2", "--zoom", "3", "x.png"],
        ["--no-cache", "--center", "1,2", "--zoom", "3", "x.svg", "--quality", "0"],
        ["--zoom", "1e1", "--center", "0,0", "--scale", "+2", "y.png"],
    ])
    func readsWhatArgumentParserReads(arguments: [String]) throws {
        let settings = try #require(quick(arguments), "\(arguments) should parse without ArgumentParser")
        #expect(settings == (try parsed(arguments)), "\(arguments)")
    }

    @Test(arguments: [
        [], ["--help"], ["-h"], ["out.png", "--help"], ["help"], ["--version"],
        ["diff", "a.png", "b.png"], ["batch", "jobs.jsonl"], ["validate", "Styles/default.yaml"], ["styles"], ["cache", "stats"],
        ["a.png", "b.png"],                                  // two outputs
        ["--center", "1,2", "--zoom", "3"],                  // no output
        ["out.png", "--zoom", "x"],                          // not a number
        ["out.png", "--zoom"],                               // no value
        ["out.png", "--format", "gif"], ["out.png", "--png-compression", "fastest"],
        ["out.png", "--zoom", "3", "--zoom", "4"],           // repeated
        ["out.png", "--strict", "--strict"], ["out.png", "-v", "--verbose"],
        ["out.png", "--style", "-x"],                        // an option where a value should be
        ["out.png", "--report", "-"],                        // ArgumentParser decides what `-` is here
        ["out.png", "--unknown"], ["out.png", "-vv"], ["out.png", "--strict=true"], ["--", "out.png"],
        ["-out.png"],
    ])
    func leavesEverythingElseToArgumentParser(arguments: [String]) {
        #expect(quick(arguments) == nil, "\(arguments)")
    }

    /// Every option and flag the quick reader knows is one the render command declares: an
    /// argument list using each of them once parses with ArgumentParser to the same settings.
    @Test func knowsOnlyTheRenderCommandsOwnOptions() throws {
        let everything = ["--style", "s.yaml", "--center", "1,2", "--zoom", "3", "--padding", "4", "--fractional-zoom",
                          "--marker", "1,2", "--path", "1,2;3,4", "--polygon", "1,2;3,4;5,6", "--circle", "1,2,3",
                          "--text", "1,2,t", "--overlay", "o.geojson", "--size", "10x20", "--scale", "2", "--format", "png",
                          "--quality", "50", "--lossless", "--png-compression", "small", "--world-file", "--report", "r.json",
                          "--tile-memory", "8", "--strict", "--no-attribution", "--verbose", "--cache-dir", "c", "--no-cache",
                          "--offline", "--bbox", "1,2,3,4", "out.png"]
        let settings = try #require(quick(everything))
        #expect(settings == (try parsed(everything)))
        #expect(settings.overlays.markers == ["1,2"] && settings.cache.offline && settings.pngCompression == .small)
    }

    /// Text is set up ahead (see `TextWarmUp`) unless the map can draw none: no attribution,
    /// and no overlays given that may draw text (text, labelled markers, GeoJSON files).
    @Test func drawsTextUnlessNeitherAttributionNorOverlaysWithText() throws {
        #expect(try #require(quick(["out.png"])).drawsText)
        #expect(try #require(quick(["--no-attribution", "--marker", "1,2,red,A", "out.png"])).drawsText)
        #expect(try #require(quick(["--no-attribution", "--marker", "1,2", "--marker", "1,2,,Long label;size=small",
                                    "out.png"])).drawsText)
        #expect(try #require(quick(["--no-attribution", "--text", "3,4,Hello", "out.png"])).drawsText)
        #expect(try #require(quick(["--no-attribution", "--overlay", "o.geojson", "out.png"])).drawsText)
        #expect(!(try #require(quick(["--no-attribution", "--marker", "1,2", "--marker", "1,2,red,;symbol=circle",
                                      "--path", "1,2;3,4", "--circle", "1,2,500", "out.png"]))).drawsText)
        #expect(!(try #require(quick(["--no-attribution", "--center", "1,2", "--zoom", "3", "out.png"]))).drawsText)
    }
}
