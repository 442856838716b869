import CImageCodecs

extension RasterImage {
    /// Starts making ready, on a thread of its own, the memory of a `width`×`height` image large
    /// enough for huge pages: mapped, and its pages faulted in (the kernel clears each). The next
    /// image from that size up to `roomWidth`×`roomHeight` takes it: the map, or the slab of tiles
    /// the map is a view of. A render knows its map's size from its arguments, so the kernel can
    /// clear those pages on another core while the render reads its style; otherwise the render
    /// pays for it while it decodes or draws (about 1.3 ms of CPU per 1024x1024 here). One
    /// preparation at a time; `discardPreparedMemory` releases one nothing took (a process that
    /// ends releases it with the rest of its memory).
    public static func prepareMemory(width: Int, height: Int, roomWidth: Int, roomHeight: Int) {
        // Cairo makes no image surface wider or taller than 32767 pixels.
        guard (1...32767).contains(width), (1...32767).contains(height),
              let (_, bytes) = layout(width: width, height: height), bytes >= hugePageThreshold else { return }
        let room = layout(width: min(max(roomWidth, width), 32767), height: min(max(roomHeight, height), 32767))?.bytes
        mc_huge_pages_prepare(bytes, room ?? bytes)
    }

    /// `prepareMemory` for a map of this size, with room for the slab of tiles up to 512 px that
    /// covers it with a tile to spare on each side.
    public static func prepareMemory(forMapWidth width: Int, height: Int) {
        // Sides beyond any surface's (see above) are refused there; clamped here so as not to
        // overflow.
        prepareMemory(width: width, height: height, roomWidth: min(width, 32767) + 1024,
                      roomHeight: min(height, 32767) + 1024)
    }

    /// Gives up memory `prepareMemory` is making or made ready that no image took, without
    /// waiting: a thread still at work stops at its next huge page and releases it.
    public static func discardPreparedMemory() {
        mc_huge_pages_discard_prepared(0)
    }

    /// `discardPreparedMemory` for memory prepared for an image of this size only.
    public static func discardPreparedMemory(width: Int, height: Int) {
        guard let (_, bytes) = layout(width: width, height: height) else { return }
        mc_huge_pages_discard_prepared(bytes)
    }

    /// True while memory made ready by `prepareMemory` waits for an image to take it.
    public static var preparedMemoryIsWaiting: Bool { mc_huge_pages_prepared_pending() != 0 }
}
