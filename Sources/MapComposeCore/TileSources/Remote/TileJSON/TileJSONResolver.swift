import Foundation

/// Turns a `TileJSONSourceSpec` into the remote XYZ source its document describes. A remote
/// document is read through the disk cache (kept as the server's headers say, used stale when
/// the server cannot be reached, and the only source when offline).
public enum TileJSONResolver {
    public static func resolve(_ spec: TileJSONSourceSpec, environment: RemoteEnvironment) throws(TileJSONError) -> RemoteXYZSourceSpec {
        let (document, base) = try document(spec, environment: environment)
        return try xyzSpec(document, base: base, spec: spec)
    }

    /// The document, and the URL its relative tile URLs are relative to.
    static func document(_ spec: TileJSONSourceSpec, environment: RemoteEnvironment) throws(TileJSONError) -> (TileJSONDocument, URL?) {
        switch spec.location {
        case .file(let url):
            guard let data = try? Data(contentsOf: url) else { throw TileJSONError("cannot read '\(url.path)'") }
            return (try TileJSONDocument.parse(data), url)
        case .remote(let url):
            let fetched = RemoteDocument.fetch(url, kind: "tilejson", options: spec.remote,
                                               environment: environment) { data throws(RemoteDocument.Failure) in
                do throws(TileJSONError) {
                    return try TileJSONDocument.parse(data)
                } catch {
                    throw RemoteDocument.Failure(description: error.description)
                }
            }
            switch fetched {
            case .success(let document): return (document, URL(string: url.text))
            case .failure(let failure): throw TileJSONError(failure.description, unreachable: failure.unreachable)
            }
        }
    }

    static func xyzSpec(_ document: TileJSONDocument, base: URL?, spec: TileJSONSourceSpec) throws(TileJSONError) -> RemoteXYZSourceSpec {
        guard !document.tiles.isEmpty else { throw TileJSONError("'tiles' lists no URL") }
        var templates: [TilePathTemplate] = []
        for (index, text) in document.tiles.enumerated() {
            let absolute = text.contains("://") ? text
                : (base.flatMap { URL(string: text, relativeTo: $0)?.absoluteString } ?? text)
            // Braces are percent-encoded by URL resolution; the template needs them back.
            let restored = absolute.replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}")
            guard restored.hasPrefix("http://") || restored.hasPrefix("https://") else {
                throw TileJSONError("'tiles[\(index)]' is not an http or https URL: '\(text)'")
            }
            do {
                templates.append(try TilePathTemplate(restored, allowing: TilePathTemplate.urlPlaceholders))
            } catch {
                throw TileJSONError("'tiles[\(index)]': \(error)")
            }
        }
        let tms: Bool
        switch document.scheme ?? "xyz" {
        case "xyz": tms = false
        case "tms": tms = true
        case let other: throw TileJSONError("unknown scheme '\(other)' (expected xyz or tms)")
        }
        let size = spec.tileSize ?? document.tileSize ?? 256
        guard size == 256 || size == 512 else { throw TileJSONError("tile size \(size) is not 256 or 512") }
        var bounds: GeoBounds?
        if let b = document.bounds {
            let box = b.count == 4 ? GeoBounds(west: b[0], south: b[1], east: b[2], north: b[3]) : nil
            guard let box, box.isValidBox else { throw TileJSONError("'bounds' is not [west, south, east, north] in degrees") }
            bounds = box
        }
        let low = document.minzoom ?? 0, high = document.maxzoom ?? 22
        guard (0...30).contains(low), (0...30).contains(high), low <= high else {
            throw TileJSONError("minzoom \(low) / maxzoom \(high) is not a zoom range within 0…30")
        }
        return RemoteXYZSourceSpec(templates: templates, tms: tms, nativeZoom: spec.nativeZoom ?? low...high, bounds: bounds,
                                   tileSize: size, retina: spec.retina, attribution: document.attribution, remote: spec.remote)
    }
}
