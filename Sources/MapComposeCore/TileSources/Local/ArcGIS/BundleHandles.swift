import Foundation

/// The open bundles of one compact cache, shared by every concurrent read: each bundle (and
/// its `.bundlx`) is opened once and then read with positioned reads by any number of tasks.
/// A bundle that does not exist is remembered too (every tile in it is absent). At most
/// `capacity` bundles stay open; the least recently used is let go first (reads still holding
/// it finish, and its files close when the last one is done).
final class BundleHandles: @unchecked Sendable {
    /// An opened bundle of either version.
    enum Bundle: Sendable {
        case v1(CompactBundleV1)
        case v2(CompactBundleV2)
        /// Neither file exists.
        case absent
        /// A version-1 `.bundle` without its `.bundlx`: no tile in it can be found.
        case unindexed(String)

        func tile(row: Int, column: Int) -> BundleLookup {
            switch self {
            case .v1(let bundle): return bundle.tile(row: row, column: column)
            case .v2(let bundle): return bundle.tile(row: row, column: column)
            case .absent: return .absent
            case .unindexed(let reason): return .corrupt(reason)
            }
        }
    }

    let version: ArcGISStorageFormat
    let capacity: Int
    private let lock = NSLock()
    private var open: [String: (bundle: Bundle, used: UInt64)] = [:]
    private var clock: UInt64 = 0

    init(version: ArcGISStorageFormat, capacity: Int = 64) {
        self.version = version
        self.capacity = max(1, capacity)
    }

    /// The bundle whose files are `base` + `.bundle` (and `.bundlx` for version 1), opened on
    /// first use; a failure to open (other than absence) is returned and not remembered.
    func bundle(base: String) -> Result<Bundle, BundleOpenError> {
        if let known = lock.withLock({ () -> Bundle? in
            clock += 1
            open[base]?.used = clock
            return open[base]?.bundle
        }) {
            return .success(known)
        }
        let opened: Bundle
        switch Self.openFiles(base: base, version: version) {
        case .success(let bundle): opened = bundle
        case .failure(let error): return .failure(error)
        }
        return .success(lock.withLock {
            clock += 1
            if let raced = open[base] { return raced.bundle }
            if open.count >= capacity, let oldest = open.min(by: { $0.value.used < $1.value.used })?.key {
                open[oldest] = nil
            }
            open[base] = (opened, clock)
            return opened
        })
    }

    /// How many bundles are open now (for tests).
    var openCount: Int { lock.withLock { open.count } }

    private static func openFiles(base: String, version: ArcGISStorageFormat) -> Result<Bundle, BundleOpenError> {
        func opening(_ path: String) -> Result<PositionedFile?, BundleOpenError> {
            switch PositionedFile.open(path) {
            case .opened(let file): return .success(file)
            case .absent: return .success(nil)
            case .failed(let reason): return .failure(BundleOpenError(path: path, reason: reason))
            }
        }
        let data: PositionedFile?
        switch opening(base + ".bundle") {
        case .success(let file): data = file
        case .failure(let error): return .failure(error)
        }
        guard let data else { return .success(.absent) }
        guard version == .compact else { return .success(.v2(CompactBundleV2(file: data))) }
        switch opening(base + ".bundlx") {
        case .success(let index?): return .success(.v1(CompactBundleV1(index: index, data: data)))
        case .success(nil): return .success(.unindexed("\(base).bundlx is missing: the tiles of \(data.path) cannot be found"))
        case .failure(let error): return .failure(error)
        }
    }
}

/// A bundle file that exists but cannot be opened.
struct BundleOpenError: Error, Equatable, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "\(path): \(reason)" }
}
