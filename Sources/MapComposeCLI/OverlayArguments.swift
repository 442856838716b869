import Foundation
import MapComposeCore

/// Turns the overlay options into overlays, naming the option (and which of its repeats) and
/// the value at fault. Drawn bottom first: polygons, circles, GeoJSON files, paths, text, markers.
struct OverlayArguments: Equatable {
    var markers: [String] = []
    var paths: [String] = []
    var polygons: [String] = []
    var circles: [String] = []
    var texts: [String] = []
    var files: [String] = []

    var isEmpty: Bool { [markers, paths, polygons, circles, texts, files].allSatisfy(\.isEmpty) }

    func overlays() throws(CLIFailure) -> [Overlay] {
        var result: [Overlay] = []
        result += try parse(polygons, .polygon)
        result += try parse(circles, .circle)
        for (index, file) in files.enumerated() {
            let name = label("--overlay", index, files.count)
            let data: Data
            do {
                data = try InputFile.read(file)
            } catch {
                throw CLIFailure("\(name) '\(file.messageExcerpt)': cannot read it: \(error.reason)")
            }
            do {
                result += try GeoJSONOverlay.overlays(from: data)
            } catch {
                throw CLIFailure("\(name) '\(file.messageExcerpt)': \(error.reason)")
            }
        }
        result += try parse(paths, .path)
        result += try parse(texts, .text)
        result += try parse(markers, .marker)
        return result
    }

    private func parse(_ values: [String], _ kind: OverlayKind) throws(CLIFailure) -> [Overlay] {
        var result: [Overlay] = []
        for (index, value) in values.enumerated() {
            do {
                result.append(try OverlaySyntax.parse(kind, value, files: { URL(fileURLWithPath: $0) }))
            } catch {
                let hint = error.reason.contains("expected") ? ""
                    : " (expected \(kind.syntax), then ;key=value settings: \(kind.settingKeys.joined(separator: ", ")))"
                throw CLIFailure("\(label("--\(kind.rawValue)", index, values.count)) '\(value.messageExcerpt)': \(error.reason)\(hint)")
            }
        }
        return result
    }

    /// `--marker`, or `--marker #2` when the option is repeated.
    private func label(_ option: String, _ index: Int, _ count: Int) -> String {
        count > 1 ? "\(option) #\(index + 1)" : option
    }
}
