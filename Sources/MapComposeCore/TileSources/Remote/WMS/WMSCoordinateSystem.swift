/// A coordinate system named in a GetMap request, and how version 1.3.0 orders its BBOX axes.
public struct WMSCoordinateSystem: Sendable, Hashable, CustomStringConvertible {
    /// Names of Web Mercator, the only system the compositor's grids use.
    public static let webMercatorCodes: Set<String> = ["EPSG:3857", "EPSG:900913", "EPSG:102100", "EPSG:102113", "EPSG:3785"]
    /// Geographic systems whose EPSG axis order is latitude first.
    static let latitudeFirstCodes: Set<String> = ["EPSG:4326", "EPSG:4258", "EPSG:4269", "EPSG:4267", "CRS:84"]

    /// The code as sent, upper case (`EPSG:3857`).
    public let code: String

    public init(_ code: String) { self.code = code.uppercased() }

    public var isWebMercator: Bool { Self.webMercatorCodes.contains(code) }

    /// True when a 1.3.0 BBOX lists this system's axes latitude first: geographic EPSG systems
    /// (EPSG:4326 and kin), never projected ones such as EPSG:3857, nor CRS:84.
    public func swapsAxes(in version: WMSVersion) -> Bool {
        version == .v1_3_0 && code != "CRS:84" && Self.latitudeFirstCodes.contains(code)
    }

    public var description: String { code }
}
