import MapComposeCore

/// Where a render writes: the image and, with `--report`, the JSON report. Both are set up
/// before any work, so a path that cannot be written fails at once.
struct RenderOutputs {
    let image: OutputTarget
    let report: OutputTarget?

    /// `-` names standard output, for the image or for the report but not for both.
    static func open(image: String, report: String?) throws(CLIFailure) -> RenderOutputs {
        let stdout = OutputTarget.standardOutputName
        if image == stdout, report == stdout {
            throw CLIFailure("the image and --report cannot both go to standard output (-): write the report to a file, e.g. --report report.json")
        }
        do {
            let imageTarget = try OutputTarget(path: image)
            return RenderOutputs(image: imageTarget, report: try report.map { path throws(OutputError) in try OutputTarget(path: path) })
        } catch {
            throw CLIFailure(error.description)
        }
    }
}
