import Foundation

/// Decoded metatile pictures of one WMS layer: a metatile asked for by several tiles at once
/// is fetched and decoded once, and the most recent few are kept for the tiles that follow.
actor MetatileCache {
    /// A decoded picture, or the fetch that gave none.
    typealias Picture = Result<RasterImage, MetatileFailure>

    /// Metatiles kept after use.
    static let kept = 16

    private var tasks: [String: Task<Picture, Never>] = [:]
    private var order: [String] = []

    /// The picture of metatile `key`, `width`×`height` pixels, from `load` when not already at
    /// hand. A picture of another size is refused from its header, before decoding.
    func picture(_ key: String, width: Int, height: Int, load: @escaping @Sendable () async -> TileFetch) async -> Picture {
        if let task = tasks[key] { return await task.value }
        let task = Task { () -> Picture in
            let fetch = await load()
            switch fetch.outcome {
            case .missing:
                return .failure(MetatileFailure(fetch: fetch))
            case .found(.raster(let image)):
                return .success(image)  // sources of metatiles answer with encoded bytes
            case .found(.encoded(let data)):
                func wrongSize(_ size: (width: Int, height: Int)) -> Picture {
                    .failure(MetatileFailure(fetch: TileFetch(.missing(.wrongSize(width: size.width, height: size.height,
                                                                                  expectedWidth: width, expectedHeight: height)),
                                                              origin: fetch.origin, fromDiskCache: fetch.fromDiskCache)))
                }
                if let size = TileDecoder.headerSize(data), size.width != width || size.height != height { return wrongSize(size) }
                do throws(TileDecodeError) {
                    let image = try TileDecoder.decode(data)
                    guard image.width == width, image.height == height else { return wrongSize((image.width, image.height)) }
                    return .success(image)
                } catch {
                    return .failure(MetatileFailure(fetch: TileFetch(.missing(.undecodable(error)), origin: fetch.origin,
                                                                     fromDiskCache: fetch.fromDiskCache)))
                }
            }
        }
        tasks[key] = task
        order.append(key)
        let picture = await task.value
        if case .failure(let failure) = picture, !failure.fetch.isDefiniteMiss { forget(key) }
        while order.count > Self.kept { forget(order[0]) }
        return picture
    }

    /// Drops the picture of `key` (it did not decode).
    func forget(_ key: String) {
        tasks[key] = nil
        order.removeAll { $0 == key }
    }
}

/// The fetch of a metatile that gave no picture; each of its tiles reports it.
struct MetatileFailure: Error {
    let fetch: TileFetch
}

extension TileFetch {
    /// A miss asking again would not change.
    var isDefiniteMiss: Bool {
        if case .missing(let reason) = outcome { return reason.isDefinite }
        return false
    }
}
