import Foundation

/// Where a point stands against a device's geofence, as helpdesk answers "am I outside it?":
/// inside which area, or outside every one, with the nearest area's edge and centre.
public struct GeofenceExplanation: Equatable, Sendable {
    public let point: GeoPoint
    public let isInside: Bool
    public let nearestArea: Geofence.Area
    /// From the nearest area's edge: negative inside it.
    public let metersFromEdge: Double
    public let metersFromCentre: Double

    /// Nil when the fence has no area.
    public init?(_ point: GeoPoint, against fence: Geofence) {
        let measured = fence.areas.map { area in (area: area, centre: GeoPoint.distanceMeters(from: area.centre, to: point)) }
        guard let nearest = measured.min(by: { $0.centre - $0.area.radiusMeters < $1.centre - $1.area.radiusMeters }) else { return nil }
        self.point = point
        nearestArea = nearest.area
        metersFromCentre = nearest.centre
        metersFromEdge = nearest.centre - nearest.area.radiusMeters
        isInside = metersFromEdge <= 0
    }

    /// "Inside North depot, 300 m from its edge." or "Outside every area: North depot's edge
    /// is 120 m away (1.6 km from its centre; its radius is 1.5 km)."
    public var sentence: String {
        let area = nearestArea.name
        if isInside {
            return "Inside \(area), \(GeoPoint.describe(meters: -metersFromEdge)) from its edge."
        }
        return "Outside every area: \(area)'s edge is \(GeoPoint.describe(meters: metersFromEdge)) away "
            + "(\(GeoPoint.describe(meters: metersFromCentre)) from its centre; its radius is \(GeoPoint.describe(meters: nearestArea.radiusMeters)))."
    }

    /// The short form beside a log line: "outside, 120 m beyond North depot's edge".
    public var short: String {
        isInside ? "inside \(nearestArea.name)"
            : "outside, \(GeoPoint.describe(meters: metersFromEdge)) beyond \(nearestArea.name)'s edge"
    }
}

extension GeoPoint {
    /// The first "latitude, longitude" pair a text gives in decimal degrees ("at 53.4662,
    /// -2.2398"), as apps write where they are into their logs; nil when there is none. Both
    /// numbers need a decimal point, so counts and versions ("3, 4", "2.4.0") are not taken for one.
    public static func firstMentioned(in text: String) -> GeoPoint? {
        for match in text.matches(of: coordinate) {
            // Standing alone: not the tail of a longer number or word, nor followed by one.
            let before = match.range.lowerBound == text.startIndex ? nil : text[text.index(before: match.range.lowerBound)]
            let after = match.range.upperBound == text.endIndex ? nil : text[match.range.upperBound]
            guard !Self.continuesANumber(before), !Self.continuesANumber(after) else { continue }
            if let point = GeoPoint(pair: text[match.range]) { return point }
        }
        return nil
    }

    private static func continuesANumber(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "." || character == "_"
    }

    nonisolated(unsafe) private static let coordinate = /-?\d{1,2}\.\d{2,},\s?-?\d{1,3}\.\d{2,}/

    private init?(pair: Substring) {
        let parts = pair.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }
}
