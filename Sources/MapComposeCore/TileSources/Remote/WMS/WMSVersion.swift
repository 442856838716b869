/// The WMS protocol versions GetMap is sent in.
public enum WMSVersion: String, Sendable, CaseIterable {
    case v1_1_1 = "1.1.1"
    case v1_3_0 = "1.3.0"

    /// The parameter naming the coordinate system: `SRS` in 1.1.1, `CRS` in 1.3.0.
    var crsParameter: String { self == .v1_1_1 ? "SRS" : "CRS" }

    /// The `EXCEPTIONS` value asking for an XML exception report.
    var xmlExceptions: String { self == .v1_1_1 ? "application/vnd.ogc.se_xml" : "XML" }
}
