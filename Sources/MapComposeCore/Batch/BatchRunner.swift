import Foundation
import Logging

/// Runs a manifest's jobs: each job is a `RenderRequest` written by `StaticMapWriter`, the
/// same as a single `render`, and all of them share one `TileStore` and one disk cache
/// (`Options.remote`), so a tile used by many maps is fetched and decoded once. Rows are read as a stream and at most `jobs` maps are in
/// flight, so memory stays flat however long the manifest is. A bad row, a missing style or a
/// failing render fails that job alone.
public struct BatchRunner: Sendable {
    /// How a batch runs.
    public struct Options: Sendable {
        /// Maps rendered at once (1…`maxJobs`).
        public var jobs: Int
        /// Folder the jobs' outputs are relative to (created when missing).
        public var outputFolder: String
        /// Skip jobs whose output already exists (outputs appear only when complete).
        public var resume: Bool
        public var shard: BatchShard
        /// JSON Lines file with one `BatchJobResult` per job.
        public var resultsPath: String?
        /// The disk cache and HTTP client the jobs' remote sources share.
        public var remote: RemoteEnvironment
        /// Let rows name style files outside the manifest's folder.
        public var allowOutsidePaths: Bool

        public init(jobs: Int = CPUPool.cores, outputFolder: String = "Output",
                    resume: Bool = false, shard: BatchShard = .all, resultsPath: String? = nil,
                    remote: RemoteEnvironment = .standard, allowOutsidePaths: Bool = false) {
            self.jobs = jobs
            self.outputFolder = outputFolder
            self.resume = resume
            self.shard = shard
            self.resultsPath = resultsPath
            self.remote = remote
            self.allowOutsidePaths = allowOutsidePaths
        }
    }

    /// Most maps in flight: each holds one pending output file, and a signal handler removes
    /// at most `PendingFileRegistry.capacity` of them.
    public static let maxJobs = PendingFileRegistry.capacity / 2

    /// How a batch ended.
    public struct Summary: Sendable {
        public var progress: BatchProgress
        /// The first failures, in the order they ended (all are in the results file).
        public var failures: [BatchJobResult]
        /// Distinct styles loaded.
        public var stylesLoaded: Int
        /// Distinct styles that failed to load (missing, or with problems).
        public var stylesFailed: Int
    }

    /// How many failures the summary keeps.
    public static let failuresKept = 20

    public let manifestPath: String
    public let options: Options
    public let store: TileStore
    let logger: Logger

    public init(manifestPath: String, options: Options, store: TileStore, logger: Logger) {
        self.manifestPath = manifestPath
        self.options = options
        self.store = store
        self.logger = logger
    }

    /// Checks the options and counts the shard's jobs (a first pass over the manifest, as a
    /// stream); throws for a manifest that cannot be read at all.
    public func countJobs() throws(ManifestError) -> Int {
        try checkJobs()
        let reader = try ManifestFormat.open(manifestPath)
        var count = 0
        while let row = try reader.next() {
            if options.shard.contains(row.ordinal) { count += 1 }
        }
        return count
    }

    private func checkJobs() throws(ManifestError) {
        guard (1...Self.maxJobs).contains(options.jobs) else {
            throw ManifestError("--jobs \(options.jobs): expected 1…\(Self.maxJobs)")
        }
    }

    /// Runs the shard's jobs; `progress` is called after each one ends. A regular manifest file
    /// is counted (for the progress total) on another thread while the first jobs run, so that
    /// a long manifest's first pass does not hold every core back; any other (a pipe, standard
    /// input) is read once, and the total stays unknown.
    public func run(progress report: @Sendable (BatchProgress) -> Void) async throws(ManifestError) -> Summary {
        try checkJobs()
        let counted = CountedJobs()
        let counting = ManifestFormat.isRegularFile(manifestPath)
            ? Task.detached(priority: .utility) { [self] in counted.set(try? countJobs()) } : nil
        defer { counting?.cancel() }
        let reader = try ManifestFormat.open(manifestPath)
        var files = RunFiles()
        files.addInput(manifestPath, role: "the manifest \(manifestPath)")
        if let path = options.resultsPath {
            do {
                try files.claimOutput(path, role: "the results")
            } catch {
                throw ManifestError("--results: \(error)")
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: options.outputFolder, withIntermediateDirectories: true)
        } catch {
            throw ManifestError("--out \(options.outputFolder): cannot create the folder: \(error.localizedDescription)")
        }
        let results = try options.resultsPath.map { path throws(ManifestError) in
            try BatchResultsFile(path: path, append: options.resume)
        }
        let baseFolder = manifestPath == ManifestFormat.standardInputName
            ? FileManager.default.currentDirectoryPath
            : URL(fileURLWithPath: manifestPath).deletingLastPathComponent().path
        let styles = StyleCache(baseFolder: baseFolder, remote: options.remote,
                                confinement: options.allowOutsidePaths ? nil : baseFolder)
        let writer = StaticMapWriter(store: store, logger: logger)
        let started = ContinuousClock.now
        var progress = BatchProgress(total: nil)
        var failures: [BatchJobResult] = []
        var readError: ManifestError?

        func record(_ result: BatchJobResult) {
            switch result.status {
            case .ok:
                progress.written += 1
                progress.tilesDecoded += result.tilesDecoded
            case .skipped: progress.skipped += 1
            case .failed:
                progress.failed += 1
                if failures.count < Self.failuresKept { failures.append(result) }
            }
            progress.elapsed = (ContinuousClock.now - started).milliseconds / 1000
            if progress.total == nil { progress.total = counted.total }
            report(progress)
        }

        await withTaskGroup(of: BatchJobResult.self) { group in
            var inFlight = 0
            while true {
                let row: ManifestRow?
                do throws(ManifestError) {
                    row = try reader.next()
                } catch {
                    readError = error
                    row = nil
                }
                guard let row, results?.writeError == nil else { break }
                guard options.shard.contains(row.ordinal) else { continue }
                // Jobs are read here, in manifest order, so each output is claimed before any
                // job that could write it runs.
                let job = row.fields.flatMap { fields in Result { () throws(ManifestError) in try BatchJob(fields: fields) } }
                let refusal = (try? job.get()).flatMap { job in
                    Self.claimOutput(of: job, row: row, outputFolder: options.outputFolder, files: &files)
                }
                if inFlight == options.jobs, let done = await group.next() {
                    inFlight -= 1
                    record(done)
                }
                inFlight += 1
                group.addTask {
                    // The results line is written here, as the job ends, and a signal that
                    // comes once its image is in place waits for it (see `CommitHold`).
                    let hold = PendingFileRegistry.CommitHold()
                    // The job holds a core from start to end (its encoding and file included), so
                    // that the pool's helpers take cores only where fewer jobs than cores run.
                    let result = await CPUPool.shared.occupying {
                        await PendingFileRegistry.$commitHold.withValue(hold) {
                            await Self.perform(row, job: job, refusal: refusal, writer: writer, styles: styles, options: options)
                        }
                    }
                    results?.append(result)
                    hold.end()
                    return result
                }
            }
            for await done in group { record(done) }
        }
        if let error = readError ?? results?.writeError { throw error }
        await counting?.value
        progress.total = counted.total
        return Summary(progress: progress, failures: failures, stylesLoaded: await styles.loaded,
                       stylesFailed: await styles.failedToLoad)
    }

    /// Claims a job's output among the run's files; the reason it cannot be written when it is
    /// the manifest, the results file or another row's output.
    static func claimOutput(of job: BatchJob, row: ManifestRow, outputFolder: String,
                            files: inout RunFiles) -> ManifestError? {
        do {
            try files.claimOutput(OutputPath.joined(outputFolder, job.output), role: "the output of \(row.location)")
            return nil
        } catch {
            return ManifestError("output '\(job.output)': \(error.reason)")
        }
    }

    /// One row: its job (or why the row is bad) and, when its output was refused, why; skip it
    /// if resuming and done, else render and write it.
    static func perform(_ row: ManifestRow, job parsed: Result<BatchJob, ManifestError>, refusal: ManifestError?,
                        writer: StaticMapWriter, styles: StyleCache, options: Options) async -> BatchJobResult {
        let started = ContinuousClock.now
        let givenID = (try? row.fields.get())?["id"]
        var result = BatchJobResult(id: givenID ?? "\(row.ordinal + 1)", row: row.location, output: nil, status: .failed, ms: 0,
                                    tiles: 0, tilesDecoded: 0, fallbacks: 0, warnings: [], error: nil)
        func finished(_ result: BatchJobResult) -> BatchJobResult {
            var result = result
            result.ms = (ContinuousClock.now - started).milliseconds
            return result
        }
        let job: BatchJob
        switch parsed {
        case .success(let value): job = value
        case .failure(let error):
            result.error = error.description
            return finished(result)
        }
        result.id = job.id
        let path = OutputPath.joined(options.outputFolder, job.output)
        result.output = path
        if let refusal {
            result.error = refusal.description
            return finished(result)
        }
        if options.resume, Self.isDone(path) {
            result.status = .skipped
            return finished(result)
        }
        do {
            let style = try await styles.style(job.style)
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw ManifestError("cannot create the folder \(folder): \(error.localizedDescription)")
            }
            let request = RenderRequest(style: style, area: job.area, width: job.width, height: job.height,
                                        scale: job.scale, format: job.format, quality: job.quality, output: path,
                                        pngCompression: job.pngCompression)
            let report = try await writer.write(request)
            result.status = .ok
            result.tiles = report.layers.reduce(0) { $0 + $1.tilesDrawn }
            result.tilesDecoded = report.tilesDecoded
            result.fallbacks = report.layers.reduce(0) { $0 + $1.tilesFromParents + $1.tilesFromChildren }
            result.warnings = report.diagnostics.map(\.description)
        } catch let error as ManifestError {
            result.error = error.description
        } catch let error as RenderFailure {
            result.error = error.message
            result.warnings = error.report?.diagnostics.map(\.description) ?? []
        } catch {
            result.error = "\(error)"
        }
        return finished(result)
    }

    /// True when `path` is a regular file that is not empty (after symbolic links): a folder,
    /// a dangling link or an empty file is not a finished image.
    static func isDone(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size > 0
    }
}

/// The count of a manifest's jobs, set by the thread that counts them and read by the batch.
private final class CountedJobs: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int?

    func set(_ value: Int?) { lock.withLock { count = value } }

    /// The count, or nil until it is known (or when the manifest could not be counted).
    var total: Int? { lock.withLock { count } }
}
