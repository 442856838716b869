import Testing

/// Expects a C structure a loader declares under a name of its own (`Copy`) to have the size,
/// stride and alignment of the library's own (`Original`), as the loaders' layout tests check.
func expectSameShape<Copy, Original>(_: Copy.Type, _: Original.Type, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(MemoryLayout<Copy>.size == MemoryLayout<Original>.size, sourceLocation: sourceLocation)
    #expect(MemoryLayout<Copy>.stride == MemoryLayout<Original>.stride, sourceLocation: sourceLocation)
    #expect(MemoryLayout<Copy>.alignment == MemoryLayout<Original>.alignment, sourceLocation: sourceLocation)
}
