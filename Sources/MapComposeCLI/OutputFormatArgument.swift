import ArgumentParser
import MapComposeCommandLine
import MapComposeCore

/// Chooses the image format from `--format` and the output's name, refusing a contradiction.
enum OutputFormatArgument {
    static func resolve(_ format: ImageFormat?, output: String) throws(CLIFailure) -> ImageFormat {
        if output == OutputTarget.standardOutputName { return format ?? .png }
        let ext = OutputPath.pathExtension(of: output)
        let named = ImageFormat(pathExtension: ext)
        switch (format, named) {
        case (.some(let format), .some(let named)) where format != named:
            throw CLIFailure("--format \(format.rawValue) contradicts the output name '\(output)' (.\(ext) means \(named.rawValue.uppercased())): "
                             + "drop --format, or name the output .\(format.fileExtension)")
        case (.some(let format), _):
            return format
        case (nil, .some(let named)):
            return named
        case (nil, nil):
            throw CLIFailure("cannot tell the image format of '\(output)' (name it .png, .jpg, .webp, .pdf or .svg, "
                             + "or pass --format \(ImageFormat.allCases.map(\.rawValue).joined(separator: "|")))")
        }
    }
}

extension ImageFormat: ExpressibleByArgument {}
