import FuzzSupport
import MapComposeCore

/// Arbitrary bytes as a batch manifest, read as JSON Lines and as CSV: every row read and
/// turned into a job (or the row's error), or an error for the whole manifest.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput.data(bytes, size)
    for name in ["fuzz.jsonl", "fuzz.csv"] {
        let file = ScratchFolder.write(input, to: name)
        guard let reader = try? ManifestFormat.open(file.path) else { continue }
        while let row = try? reader.next() {
            guard case .success(let fields) = row.fields else { continue }
            _ = try? BatchJob(fields: fields)
        }
    }
    return 0
}
