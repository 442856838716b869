import CPixelMemory
import Foundation
import Testing

/// Huge pages are asked for only while their first touch is quick: a mapping whose first huge
/// page took longer than the patience turns the advice off, for the rest of that mapping and for
/// later ones, until the patience is set again. What the kernel was asked is read back from the
/// mapping's flags in /proc/self/smaps (`hg`: MADV_HUGEPAGE, `nh`: MADV_NOHUGEPAGE).
@Suite(.serialized) struct HugePagePatienceTests {
    static let mib = 1 << 20
    /// madvise(MADV_HUGEPAGE) is refused by a kernel without transparent huge pages.
    static let kernelHasHugePages = FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")

    @Test func aSlowFirstHugePageTurnsTheAdviceOff() throws {
        // No time at all: the first touch of any huge page is too slow.
        mc_huge_pages_set_patience(-1)
        defer { mc_huge_pages_set_patience(MC_HUGE_PAGE_PATIENCE_NS) }
        let length = 8 * Self.mib
        let slow = try #require(mc_huge_pages_map(length))
        defer { munmap(slow, length) }
        #expect(mc_huge_pages_advised() == 0)
        let rest = try Self.flags(at: slow + 4 * Self.mib)
        #expect(!rest.contains("hg"), "the rest of the mapping is not advised as huge pages: \(rest)")
        if Self.kernelHasHugePages {
            #expect(rest.contains("nh"), "the rest of the mapping gets small pages: \(rest)")
        }
        #expect(UnsafeRawBufferPointer(start: slow, count: length).allSatisfy { $0 == 0 })

        let later = try #require(mc_huge_pages_map(length))
        defer { munmap(later, length) }
        #expect(try !Self.flags(at: later + 4 * Self.mib).contains("hg"), "later mappings are not advised either")
    }

    @Test func settingThePatienceAsksForHugePagesAgain() throws {
        // No first touch is that slow, whatever else the machine does meanwhile.
        mc_huge_pages_set_patience(-1)
        let length = 4 * Self.mib
        let refused = try #require(mc_huge_pages_map(length))
        munmap(refused, length)
        #expect(mc_huge_pages_advised() == 0)
        mc_huge_pages_set_patience(Int64.max)
        defer { mc_huge_pages_set_patience(MC_HUGE_PAGE_PATIENCE_NS) }
        #expect(mc_huge_pages_advised() == 1)
        let mapping = try #require(mc_huge_pages_map(length))
        defer { munmap(mapping, length) }
        #expect(mc_huge_pages_advised() == 1)
        if Self.kernelHasHugePages {
            #expect(try Self.flags(at: mapping + 2 * Self.mib).contains("hg"))
        }
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
