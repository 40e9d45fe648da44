import Foundation

/// A place on Earth in degrees.
public struct GeoPoint: Codable, Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Mean Earth radius (IUGG), in metres.
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance by the haversine formula; correct across the antimeridian and
    /// near the poles, which a flat approximation is not.
    public static func distanceMeters(from a: GeoPoint, to b: GeoPoint) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δφ = φ2 - φ1, Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// "350 m" or "2.1 km", as the blocker says a distance.
    public static func describe(meters: Double) -> String {
        meters >= 1000 ? String(format: "%.1f km", meters / 1000) : "\(Int(meters.rounded())) m"
    }
}
