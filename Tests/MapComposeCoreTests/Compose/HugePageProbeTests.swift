import CPixelMemory
import Foundation
import Testing

/// Huge pages are asked for only once a probe found one quick to fill: where its first touch took
/// longer than the patience, large mappings get small pages, until the patience is set again
/// and a new probe answers. What the kernel was asked is read back from the mapping's flags in
/// /proc/self/smaps (`hg`: MADV_HUGEPAGE, `nh`: MADV_NOHUGEPAGE). The patience is either none
/// at all or unbounded, so no answer depends on how fast the machine is, or on which thread's
/// probe answers (other suites' renders may start one).
@Suite(.serialized) struct HugePageProbeTests {
    static let mib = 1 << 20
    /// madvise(MADV_HUGEPAGE) is refused by a kernel without transparent huge pages.
    static let kernelHasHugePages = FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")

    @Test func aSlowProbeKeepsLargeMappingsOnSmallPages() throws {
        mc_huge_pages_set_patience(-1)
        defer { mc_huge_pages_set_patience(MC_HUGE_PAGE_PATIENCE_NS) }
        #expect(mc_huge_pages_probe_now() == 0)
        let length = 8 * Self.mib
        let mapping = try #require(mc_huge_pages_map(length))
        defer { munmap(mapping, length) }
        let flags = try Self.flags(at: mapping + 4 * Self.mib)
        #expect(!flags.contains("hg"), "not advised as huge pages: \(flags)")
        if Self.kernelHasHugePages {
            #expect(flags.contains("nh"), "small pages asked for: \(flags)")
        }
        #expect(UnsafeRawBufferPointer(start: mapping, count: length).allSatisfy { $0 == 0 })
    }

    @Test func memoryFromElsewhereIsLeftAsItIsWhileHugePagesAreSlow() throws {
        mc_huge_pages_set_patience(-1)
        defer { mc_huge_pages_set_patience(MC_HUGE_PAGE_PATIENCE_NS) }
        #expect(mc_huge_pages_probe_now() == 0)
        let length = 8 * Self.mib
        // Its own mapping, as a large heap allocation would be, so that its flags are its own.
        let memory = try #require(mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(memory != MAP_FAILED)
        defer { munmap(memory, length) }
        mc_advise_huge_pages(memory, length)
        let flags = try Self.flags(at: memory + 4 * Self.mib)
        #expect(!flags.contains("hg") && !flags.contains("nh"), "neither huge nor small pages asked for: \(flags)")
    }

    @Test func aQuickProbeAsksForHugePages() throws {
        mc_huge_pages_set_patience(Int64.max)
        defer { mc_huge_pages_set_patience(MC_HUGE_PAGE_PATIENCE_NS) }
        #expect(mc_huge_pages_probe_now() == 1)
        let length = 4 * Self.mib
        let mapping = try #require(mc_huge_pages_map(length))
        defer { munmap(mapping, length) }
        if Self.kernelHasHugePages {
            #expect(try Self.flags(at: mapping + 2 * Self.mib).contains("hg"))
        }
        #expect(UnsafeRawBufferPointer(start: mapping, count: length).allSatisfy { $0 == 0 })
    }

    @Test func settingThePatienceProbesAgainOnAnotherThread() throws {
        mc_huge_pages_set_patience(-1)
        #expect(mc_huge_pages_probe_now() == 0)
        mc_huge_pages_set_patience(Int64.max)
        defer { mc_huge_pages_set_patience(MC_HUGE_PAGE_PATIENCE_NS) }
        mc_huge_pages_start_probe()
        mc_huge_pages_await_probe()
        #expect(mc_huge_pages_advised() == 1)
        // A second start within one patience probes no more.
        mc_huge_pages_start_probe()
        mc_huge_pages_await_probe()
        #expect(mc_huge_pages_advised() == 1)
    }

    @Test func theNextMappingIsCarvedFromThePagesTheProbeTouched() throws {
        mc_huge_pages_set_patience(Int64.max)
        defer { mc_huge_pages_set_patience(MC_HUGE_PAGE_PATIENCE_NS) }
        let length = 2 * Self.mib
        // Other suites' renders may take the probe's pages first: a few tries.
        var carved = false
        for _ in 0..<5 where !carved {
            #expect(mc_huge_pages_probe_now() == 1)
            let mapping = try #require(mc_huge_pages_map(length))
            defer { munmap(mapping, length) }
            // Resident before this test touched it: a page the probe touched.
            var resident: UInt8 = 0
            #expect(mincore(mapping, 4096, &resident) == 0)
            carved = resident & 1 == 1
            #expect(UnsafeRawBufferPointer(start: mapping, count: length).allSatisfy { $0 == 0 })
        }
        #expect(carved, "a mapping right after the probe is carved from the pages it touched")
    }

    /// The VmFlags of the mapping of this process that holds `address`.
    static func flags(at address: UnsafeMutableRawPointer) throws -> Set<String> {
        let target = UInt(bitPattern: address)
        // Read to its end: the file's size is given as 0.
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps"))
        defer { try? file.close() }
        let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= target && target < bounds[1]
            } else if inside, fields.first == "VmFlags:" {
                return Set(fields.dropFirst().map(String.init))
            }
        }
        throw CocoaError(.fileReadCorruptFile)
    }
}
