/// A tile the store is fetching: alone, or as one of a job reading several together.
enum InFlightTile: Sendable {
    case one(Task<StoredTile, Never>)
    case batch(Task<[TileKey: StoredTile], Never>)

    /// The tile at `key`, once fetched.
    func tile(_ key: TileKey) async -> StoredTile {
        switch self {
        case .one(let task):
            return await task.value
        case .batch(let task):
            // The job answers every key it was started for.
            return await task.value[key] ?? StoredTile(content: .missing(.readFailed("not read")), origin: "",
                                                       provenance: .source(decoded: false))
        }
    }
}
