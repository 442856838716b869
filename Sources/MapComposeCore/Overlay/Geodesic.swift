import Foundation

/// Geodesics on the WGS84 ellipsoid (Vincenty's formulae, accurate to well under a metre),
/// falling back to a great circle on the mean sphere for the nearly antipodal pairs where
/// Vincenty's inverse does not converge.
public enum Geodesic {
    static let a = 6_378_137.0
    static let f = 1 / 298.257_223_563
    static let b = (1 - f) * a
    static let meanRadius = (2 * a + b) / 3

    /// The length in metres and the initial azimuth in degrees (clockwise from north) of the
    /// geodesic from `p` to `q`.
    public static func inverse(from p: LonLat, to q: LonLat) -> (distance: Double, azimuth: Double) {
        vincentyInverse(p, q) ?? sphericalInverse(p, q)
    }

    /// The point `distance` metres from `p` along the geodesic leaving at `azimuth` degrees.
    /// Its longitude continues from `p`'s without wrapping (it may pass ±180°).
    public static func destination(from p: LonLat, azimuth: Double, distance: Double) -> LonLat {
        let phi1 = p.lat * .pi / 180, alpha1 = azimuth * .pi / 180
        let tanU1 = (1 - f) * tan(phi1), cosU1 = 1 / (1 + tanU1 * tanU1).squareRoot(), sinU1 = tanU1 * cosU1
        let sinAlpha1 = sin(alpha1), cosAlpha1 = cos(alpha1)
        let sigma1 = atan2(tanU1, cosAlpha1)
        let sinAlpha = cosU1 * sinAlpha1, cos2Alpha = 1 - sinAlpha * sinAlpha
        let (bigA, bigB) = coefficients(cos2Alpha)
        var sigma = distance / (b * bigA), previous = 0.0
        var cos2SigmaM = 0.0, sinSigma = 0.0, cosSigma = 0.0
        for _ in 0..<200 {
            cos2SigmaM = cos(2 * sigma1 + sigma)
            sinSigma = sin(sigma)
            cosSigma = cos(sigma)
            let deltaSigma = Self.deltaSigma(bigB, sinSigma, cosSigma, cos2SigmaM)
            previous = sigma
            sigma = distance / (b * bigA) + deltaSigma
            if abs(sigma - previous) < 1e-12 { break }
        }
        sinSigma = sin(sigma)
        cosSigma = cos(sigma)
        cos2SigmaM = cos(2 * sigma1 + sigma)
        let x = sinU1 * sinSigma - cosU1 * cosSigma * cosAlpha1
        let phi2 = atan2(sinU1 * cosSigma + cosU1 * sinSigma * cosAlpha1, (1 - f) * (sinAlpha * sinAlpha + x * x).squareRoot())
        let lambda = atan2(sinSigma * sinAlpha1, cosU1 * cosSigma - sinU1 * sinSigma * cosAlpha1)
        let c = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
        let bigL = lambda - (1 - c) * f * sinAlpha
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        return LonLat(lon: p.lon + bigL * 180 / .pi, lat: phi2 * 180 / .pi)
    }

    /// `count` points between `p` and `q` (neither included), equally spaced along the
    /// geodesic, as pyproj's `Geod.npts` gives them; longitudes continue from `p`'s.
    public static func points(from p: LonLat, to q: LonLat, count: Int) -> [LonLat] {
        guard count > 0 else { return [] }
        let (distance, azimuth) = inverse(from: p, to: q)
        return (1...count).map { destination(from: p, azimuth: azimuth, distance: distance * Double($0) / Double(count + 1)) }
    }

    private static func coefficients(_ cos2Alpha: Double) -> (Double, Double) {
        let u2 = cos2Alpha * (a * a - b * b) / (b * b)
        let bigA = 1 + u2 / 16384 * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)))
        let bigB = u2 / 1024 * (256 + u2 * (-128 + u2 * (74 - 47 * u2)))
        return (bigA, bigB)
    }

    private static func deltaSigma(_ bigB: Double, _ sinSigma: Double, _ cosSigma: Double, _ cos2SigmaM: Double) -> Double {
        bigB * sinSigma * (cos2SigmaM + bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
    }

    private static func vincentyInverse(_ p: LonLat, _ q: LonLat) -> (distance: Double, azimuth: Double)? {
        let bigL = (q.lon - p.lon) * .pi / 180
        let tanU1 = (1 - f) * tan(p.lat * .pi / 180), cosU1 = 1 / (1 + tanU1 * tanU1).squareRoot(), sinU1 = tanU1 * cosU1
        let tanU2 = (1 - f) * tan(q.lat * .pi / 180), cosU2 = 1 / (1 + tanU2 * tanU2).squareRoot(), sinU2 = tanU2 * cosU2
        var lambda = bigL
        for _ in 0..<200 {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let t = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            let sinSigma = ((cosU2 * sinLambda) * (cosU2 * sinLambda) + t * t).squareRoot()
            guard sinSigma > 0 else { return (0, 0) }
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            let cos2Alpha = 1 - sinAlpha * sinAlpha
            let cos2SigmaM = cos2Alpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cos2Alpha : 0
            let c = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
            let previous = lambda
            lambda = bigL + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            guard lambda.isFinite else { return nil }
            if abs(lambda - previous) < 1e-12 {
                let (bigA, bigB) = coefficients(cos2Alpha)
                let distance = b * bigA * (sigma - deltaSigma(bigB, sinSigma, cosSigma, cos2SigmaM))
                let azimuth = atan2(cosU2 * sin(lambda), cosU1 * sinU2 - sinU1 * cosU2 * cos(lambda)) * 180 / .pi
                return (distance, azimuth)
            }
        }
        return nil
    }

    private static func sphericalInverse(_ p: LonLat, _ q: LonLat) -> (distance: Double, azimuth: Double) {
        let phi1 = p.lat * .pi / 180, phi2 = q.lat * .pi / 180, dLambda = (q.lon - p.lon) * .pi / 180
        let h = pow(sin((phi2 - phi1) / 2), 2) + cos(phi1) * cos(phi2) * pow(sin(dLambda / 2), 2)
        let distance = 2 * meanRadius * asin(min(1, h.squareRoot()))
        let azimuth = atan2(sin(dLambda) * cos(phi2), cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda))
        return (distance, azimuth * 180 / .pi)
    }
}
