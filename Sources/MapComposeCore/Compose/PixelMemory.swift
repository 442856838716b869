import CPixelMemory

/// Memory for pixels (an image, a coverage mask) from where memory of its size is cheapest to
/// fill: tile-sized buffers from the pool that shares huge pages and reuses released buffers
/// (pooled_buffers.c), larger ones on huge pages, reused once released (huge_pages.c). Memory
/// from either is filled with a page fault per 2 MiB at most, where memory from `malloc` costs
/// one per 4 KiB, and memory reused costs none.
public struct PixelMemory {
    /// The first byte of `length` bytes.
    let bytes: UnsafeMutableRawPointer
    /// What `release` is given to free the memory.
    let owner: UnsafeMutableRawPointer
    /// Frees the memory (a C function, so that a Cairo surface can own it as user data).
    let release: @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Buffers of at least this many bytes, more than the pool's hold, get huge pages of their
    /// own (rounded up to whole 2 MiB pages: at most twice the buffer, one fault a page).
    static let hugePageThreshold = Int(MC_POOLED_BUFFER_MAX) + 1

    /// `length` bytes, all zero, or with `zeroed: false` whatever an earlier user of reused
    /// memory left there (for a caller that writes every byte before it reads one); nil for
    /// less than the pool's smallest buffer (`malloc` serves those as well) or when the memory
    /// cannot be had.
    init?(length: Int, zeroed: Bool = true) {
        if length >= Self.hugePageThreshold,
           let buffer = zeroed ? mc_huge_buffer_create(length) : mc_huge_buffer_create_unzeroed(length) {
            bytes = mc_huge_buffer_bytes(buffer)
            owner = UnsafeMutableRawPointer(buffer)
            release = mc_huge_buffer_destroy
        } else if (MC_POOLED_BUFFER_MIN...MC_POOLED_BUFFER_MAX).contains(length),
                  let buffer = zeroed ? mc_pooled_buffer_create(length) : mc_pooled_buffer_create_unzeroed(length) {
            bytes = mc_pooled_buffer_bytes(buffer)
            owner = UnsafeMutableRawPointer(buffer)
            release = mc_pooled_buffer_destroy
        } else {
            return nil
        }
    }

    /// Frees the memory; it must not be used after.
    func free() { release(owner) }

    /// Starts deciding, on another core, whether large buffers get huge pages (see
    /// `mc_huge_pages_start_probe`): a program that is about to render calls it first, so that
    /// the answer is there when the render asks for memory, and no render waits on it.
    public static func startHugePageProbe() { mc_huge_pages_start_probe() }
}
