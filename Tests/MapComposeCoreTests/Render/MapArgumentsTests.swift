import Foundation
import MapComposeCore
import Testing

@Suite struct MapArgumentsTests {
    @Test("problems name the argument in the caller's spelling", arguments: [
        (MapArguments(center: "1,1"), "center needs zoom (e.g. zoom=12)", "zoom", "--center needs --zoom (e.g. --zoom 12)", "--zoom"),
        (MapArguments(zoom: 3), "zoom needs center=LAT,LON (e.g. center=51.5,-0.12)", "center",
         "--zoom needs --center LAT,LON (e.g. --center 51.5,-0.12)", "--center"),
        (MapArguments(center: "1,1", bbox: "0,0,1,1"), "center and bbox cannot be used together", "bbox",
         "--center and --bbox cannot be used together", "--bbox"),
        (MapArguments(bbox: "0,0,1,1", padding: -1), "padding -1: padding must be 0 or more pixels", "padding",
         "--padding -1: padding must be 0 or more pixels", "--padding"),
        (MapArguments(center: "95,1", zoom: 1), "center '95,1': latitude 95 is outside -90…90", "center",
         "--center '95,1': latitude 95 is outside -90…90", "--center"),
    ])
    func areaProblems(arguments: MapArguments, query: String, queryName: String, commandLine: String, optionName: String) {
        for (spelling, message, name) in [(ArgumentSpelling.query, query, queryName), (.commandLine, commandLine, optionName)] {
            do {
                _ = try arguments.area(spelling)
                Issue.record("no problem found")
            } catch {
                #expect(error.message == message)
                #expect(error.parameter == name)
            }
        }
    }

    @Test func repeatedOverlaysAreNamedByTheirRepeat() {
        let overlays = OverlayArguments(markers: ["1,1", "95,1"])
        do {
            _ = try overlays.overlays(.query)
            Issue.record("no problem found")
        } catch {
            #expect(error.parameter == "marker #2")
            #expect(error.message.hasPrefix("marker #2 '95,1': "))
        }
    }

    @Test func aViewportTooSmallNamesSizeAndScale() throws {
        let arguments = MapArguments(center: "1,1", zoom: 2, size: "1x1", scale: 0.25)
        do {
            _ = try arguments.viewport(try arguments.area(.query), try arguments.dimensions(.query), overlays: [], .query)
            Issue.record("no problem found")
        } catch {
            #expect(error.parameter == "size")
            #expect(error.message.hasPrefix("size=1x1 at scale=0.25 would be under 1 pixel"))
        }
    }
}
