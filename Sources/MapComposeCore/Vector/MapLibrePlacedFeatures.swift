import Foundation
import MapLibreStyleSpec

/// The features of each layer of a map that pass the layer's filter, placed in device pixels:
/// found once per map and shared by the bands and the label placement that read them, so that
/// no tile's features are decoded, filtered and placed once per band.
final class MapLibrePlacedFeatures: @unchecked Sendable {
    /// One feature: what expressions read of it, and where it lies.
    struct Entry {
        let properties: [String: Value]
        let id: Value
        let geometryType: String
        let placed: MapLibrePainter.Placed
    }

    /// A layer's entries, made once: the first reader makes them, later ones wait for them.
    private final class Slot {
        let lock = NSLock()
        var entries: [Entry]?
    }

    private let lock = NSLock()
    private var slots: [ObjectIdentifier: Slot] = [:]

    /// The entries of `layer`, made by `make` on first use.
    func entries(for layer: MapLibreLayer, make: () -> [Entry]) -> [Entry] {
        lock.lock()
        let slot: Slot
        if let existing = slots[ObjectIdentifier(layer)] {
            slot = existing
        } else {
            slot = Slot()
            slots[ObjectIdentifier(layer)] = slot
        }
        lock.unlock()
        slot.lock.lock()
        defer { slot.lock.unlock() }
        if let entries = slot.entries { return entries }
        let entries = make()
        slot.entries = entries
        return entries
    }
}
