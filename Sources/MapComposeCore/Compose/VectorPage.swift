import CCairo
import Foundation

/// A one-page PDF or SVG document drawn with Cairo, owning its surface; its bytes are
/// collected in memory until `finish`.
final class VectorPage {
    let surface: OpaquePointer
    private let sink = ByteSink()

    /// A page of `width × height` points (PDF) or CSS pixels (SVG).
    init(format: ImageFormat, width: Double, height: Double) throws(CairoError) {
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        switch format {
        case .svg:
            surface = cairo_svg_surface_create_for_stream(ByteSink.write, closure, width, height)
            cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX)
        default:
            surface = cairo_pdf_surface_create_for_stream(ByteSink.write, closure, width, height)
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "mapcompose")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw CairoError(operation: "create \(format.rawValue) surface", status: status.rawValue)
        }
    }

    deinit {
        cairo_surface_destroy(surface)
    }

    /// Ends the document and returns its bytes.
    func finish() throws(CairoError) -> Data {
        cairo_surface_finish(surface)
        try CairoError.check(cairo_surface_status(surface), "write page")
        return sink.data
    }
}
