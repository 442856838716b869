import Foundation
import Hummingbird
import HTTPTypes
import MapComposeCore

/// WMS 1.3.0 and 1.1.1 at `/wms`: GetCapabilities lists every style as a layer; GetMap renders
/// one style (LAYERS) for a BBOX in EPSG:3857 (or one of its aliases) at WIDTH × HEIGHT. Every
/// problem is an OGC ServiceExceptionReport with a 4xx status.
struct WMSRequest {
    /// The CRS names that mean Web Mercator.
    static let mercatorNames = ["EPSG:3857", "EPSG:900913", "EPSG:3785", "EPSG:102100", "EPSG:102113", "OSGEO:41001"]
    static let formats: [(mediaType: String, format: ImageFormat)] = [("image/png", .png), ("image/jpeg", .jpeg), ("image/webp", .webp)]

    /// An OGC service exception: its code, message and the status it is answered with.
    struct Exception: Error {
        let code: String?
        let message: String
        var status: HTTPResponse.Status = .badRequest
    }

    let version: String
    private let parameters: [String: String]

    /// Reads the query; parameter names are case-insensitive, as WMS has them.
    init(_ rawQuery: String?) throws(Exception) {
        let query: QueryParameters
        do { query = try QueryParameters(rawQuery) } catch { throw Exception(code: nil, message: error.message) }
        var parameters: [String: String] = [:]
        for (name, value) in query.pairs {
            let key = name.uppercased()
            guard parameters[key] == nil else { throw Exception(code: nil, message: "parameter \(key) is given twice") }
            parameters[key] = value
        }
        self.parameters = parameters
        let asked = parameters["VERSION"] ?? parameters["WMTVER"] ?? "1.3.0"
        version = asked.hasPrefix("1.1") ? "1.1.1" : "1.3.0"
    }

    subscript(_ name: String) -> String? { parameters[name] }

    /// The value of a parameter GetMap needs.
    func required(_ name: String) throws(Exception) -> String {
        guard let value = parameters[name], !value.isEmpty else {
            throw Exception(code: name == "LAYERS" ? "LayerNotDefined" : "MissingParameterValue", message: "\(name) is missing")
        }
        return value
    }

    /// The report an exception is answered with, for `version`.
    static func report(_ exception: Exception, version: String) -> (body: String, mediaType: String) {
        func xml(_ text: String) -> String { ViewerPage.escape(text) }
        let code = exception.code.map { " code=\"\(xml($0))\"" } ?? ""
        if version == "1.1.1" {
            return ("""
                <?xml version="1.0" encoding="UTF-8"?>
                <ServiceExceptionReport version="1.1.1"><ServiceException\(code)>\(xml(exception.message))</ServiceException></ServiceExceptionReport>
                """, "application/vnd.ogc.se_xml")
        }
        return ("""
            <?xml version="1.0" encoding="UTF-8"?>
            <ServiceExceptionReport version="1.3.0" xmlns="http://www.opengis.net/ogc" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.opengis.net/ogc http://schemas.opengis.net/wms/1.3.0/exceptions_1_3_0.xsd">\
            <ServiceException\(code)>\(xml(exception.message))</ServiceException></ServiceExceptionReport>
            """, "text/xml")
    }

    /// GetMap's viewport: the BBOX's center and the zoom at which WIDTH pixels span it (the
    /// larger of the two resolutions when the BBOX and the size differ in shape).
    func view() throws(Exception) -> (center: LonLat, zoom: Double, width: Int, height: Int, format: ImageFormat) {
        let crsKey = version == "1.1.1" ? "SRS" : "CRS"
        let crs = try required(crsKey)
        guard Self.mercatorNames.contains(crs.uppercased()) else {
            throw Exception(code: version == "1.1.1" ? "InvalidSRS" : "InvalidCRS",
                            message: "\(crsKey) \(crs.messageExcerpt) is not served (\(Self.mercatorNames.joined(separator: ", ")))")
        }
        let formatName = try required("FORMAT")
        guard let format = Self.formats.first(where: { $0.mediaType == formatName.lowercased() })?.format else {
            throw Exception(code: "InvalidFormat", message: "FORMAT \(formatName.messageExcerpt) is not one of "
                            + Self.formats.map(\.mediaType).joined(separator: ", "))
        }
        guard let width = Int(try required("WIDTH")), let height = Int(try required("HEIGHT")), width >= 1, height >= 1 else {
            throw Exception(code: "InvalidParameterValue", message: "WIDTH and HEIGHT must be whole numbers of pixels, 1 or more")
        }
        let box = try required("BBOX").split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard box.count == 4, box.allSatisfy(\.isFinite), box[0] < box[2], box[1] < box[3] else {
            throw Exception(code: "InvalidParameterValue", message: "BBOX must be minx,miny,maxx,maxy in metres with min < max")
        }
        let limit = WebMercator.originShift * 1.0001
        guard box.allSatisfy({ abs($0) <= limit * 2 }) else {
            throw Exception(code: "InvalidParameterValue", message: "BBOX lies outside EPSG:3857's extent")
        }
        let resolution = max((box[2] - box[0]) / Double(width), (box[3] - box[1]) / Double(height))
        var zoom = log2(2 * WebMercator.originShift / (WebMercator.zoom0WorldSize * resolution))
        if abs(zoom - zoom.rounded()) < 1e-9 { zoom = zoom.rounded() }
        var center = WebMercator.lonLat(fromMetersX: (box[0] + box[2]) / 2, y: (box[1] + box[3]) / 2)
        center.lon = WebMercator.wrapLongitude(center.lon)
        return (center, zoom, width, height, format)
    }

    /// The capabilities document of this version, listing `styles` (name and title) as layers.
    func capabilities(styles: [(name: String, title: String)], url: String) -> String {
        let crsKey = version == "1.1.1" ? "SRS" : "CRS"
        let crsList = Self.mercatorNames.map { "<\(crsKey)>\($0)</\(crsKey)>" }.joined()
        let m = WebMercator.originShift
        let bbox = "<BoundingBox \(crsKey)=\"EPSG:3857\" minx=\"\(-m)\" miny=\"\(-m)\" maxx=\"\(m)\" maxy=\"\(m)\"/>"
        let geographic = version == "1.1.1"
            ? "<LatLonBoundingBox minx=\"-180\" miny=\"-85.0511287798\" maxx=\"180\" maxy=\"85.0511287798\"/>"
            : "<EX_GeographicBoundingBox><westBoundLongitude>-180</westBoundLongitude><eastBoundLongitude>180</eastBoundLongitude>"
                + "<southBoundLatitude>-85.0511287798</southBoundLatitude><northBoundLatitude>85.0511287798</northBoundLatitude></EX_GeographicBoundingBox>"
        let layers = styles.map {
            "<Layer queryable=\"0\"><Name>\(xml($0.name))</Name><Title>\(xml($0.title))</Title>\(crsList)\(geographic)\(bbox)</Layer>"
        }.joined(separator: "\n")
        let resource = "<OnlineResource xmlns:xlink=\"http://www.w3.org/1999/xlink\" xlink:type=\"simple\" xlink:href=\"\(xml(url))\"/>"
        let formats = Self.formats.map { "<Format>\($0.mediaType)</Format>" }.joined()
        let get = "<DCPType><HTTP><Get>\(resource)</Get></HTTP></DCPType>"
        let exceptionFormat = version == "1.1.1" ? "application/vnd.ogc.se_xml" : "XML"
        let capabilityFormat = version == "1.1.1" ? "application/vnd.ogc.wms_xml" : "text/xml"
        let root = version == "1.1.1"
            ? "<WMT_MS_Capabilities version=\"1.1.1\">"
            : "<WMS_Capabilities version=\"1.3.0\" xmlns=\"http://www.opengis.net/wms\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">"
        let close = version == "1.1.1" ? "</WMT_MS_Capabilities>" : "</WMS_Capabilities>"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            \(root)
            <Service><Name>\(version == "1.1.1" ? "OGC:WMS" : "WMS")</Name><Title>mapcompose</Title>\(resource)</Service>
            <Capability>
            <Request>
            <GetCapabilities><Format>\(capabilityFormat)</Format>\(get)</GetCapabilities>
            <GetMap>\(formats)\(get)</GetMap>
            </Request>
            <Exception><Format>\(exceptionFormat)</Format></Exception>
            <Layer><Title>mapcompose</Title>\(crsList)\(geographic)\(bbox)
            \(layers)
            </Layer>
            </Capability>
            \(close)
            """
    }

    private func xml(_ text: String) -> String { ViewerPage.escape(text) }
}

extension MapServer {
    /// Answers `/wms`.
    func wms(_ request: Request) async -> Response {
        var version = "1.3.0"
        do throws(WMSRequest.Exception) {
            let wms = try WMSRequest(request.uri.query)
            version = wms.version
            if let service = wms["SERVICE"], service.uppercased() != "WMS" {
                throw WMSRequest.Exception(code: "InvalidParameterValue", message: "SERVICE must be WMS")
            }
            switch (wms["REQUEST"] ?? "").lowercased() {
            case "getcapabilities", "capabilities":
                let host = request.head.authority ?? "\(configuration.host):\(configuration.port)"
                let styles = self.styles.entries.compactMap { entry in
                    self.styles.style(entry.name).map { (entry.name, $0.loaded.style.document.name) }
                }
                let text = wms.capabilities(styles: styles, url: "http://\(host)/wms?")
                let mediaType = version == "1.1.1" ? "application/vnd.ogc.wms_xml" : "text/xml"
                return Response(status: .ok, headers: [.contentType: mediaType], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
            case "getmap", "map":
                return try await wmsMap(wms, request)
            default:
                throw WMSRequest.Exception(code: "OperationNotSupported", message: "REQUEST must be GetCapabilities or GetMap")
            }
        } catch {
            let report = WMSRequest.report(error, version: version)
            var headers: HTTPFields = [.contentType: report.mediaType]
            if error.status == .serviceUnavailable { headers[.retryAfter] = "\(configuration.limits.retryAfter)" }
            return Response(status: error.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: report.body)))
        }
    }

    private func wmsMap(_ wms: WMSRequest, _ request: Request) async throws(WMSRequest.Exception) -> Response {
        let layers = try wms.required("LAYERS")
        guard !layers.contains(","), let (entry, loaded) = styles.style(layers) else {
            throw WMSRequest.Exception(code: "LayerNotDefined", message: "LAYERS \(layers.messageExcerpt) is not one served style")
        }
        let view = try wms.view()
        do throws(ServeProblem) {
            try checkSize((view.width, view.height), scale: 1)
            var renderRequest = RenderRequest(style: loaded.style, area: .center(view.center, zoom: view.zoom), width: view.width,
                                              height: view.height, format: view.format, output: "-", attribution: false)
            renderRequest.deadline = renderDeadline(loaded.style)
            return try await image(renderRequest, entry, request)
        } catch {
            throw WMSRequest.Exception(code: error.status == .badRequest ? "InvalidParameterValue" : nil, message: error.message,
                                       status: error.status)
        }
    }
}
