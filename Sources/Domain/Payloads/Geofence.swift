/// Geofence: SDK apps work only inside one of these circular areas.
public struct Geofence: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("geofence", displayName: "Geofence",
                                         summary: "Limits SDK apps to named areas such as offices, schools or stores.",
                                         combination: .union, settings: Geofence.self)
    public static let radiusRange = 50.0...50_000.0

    public struct Area: Codable, Equatable, Sendable {
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var radiusMeters: Double

        public init(name: String, latitude: Double, longitude: Double, radiusMeters: Double) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.radiusMeters = radiusMeters
        }

        public var centre: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }
    }

    public var areas: [Area]

    public init(areas: [Area]) {
        self.areas = areas
    }

    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        if areas.isEmpty { errors["areas"] = "Add at least one area, or remove the payload." }
        var names: Set<String> = []
        for (index, area) in areas.enumerated() {
            let name = area.name.trimmingWhitespace()
            if name.isEmpty { errors["areas.\(index).name"] = "Name the area, such as “Head office”." }
            else if name.count > 80 { errors["areas.\(index).name"] = "Keep the name to 80 characters or fewer." }
            else if let problem = PlainText.problem(name) { errors["areas.\(index).name"] = problem }
            else if !names.insert(name.lowercased()).inserted { errors["areas.\(index).name"] = "Another area is already called \(name)." }
            if !(-90...90).contains(area.latitude) { errors["areas.\(index).latitude"] = "Latitude runs from −90 to 90 degrees." }
            if !(-180...180).contains(area.longitude) { errors["areas.\(index).longitude"] = "Longitude runs from −180 to 180 degrees." }
            if !Self.radiusRange.contains(area.radiusMeters) {
                errors["areas.\(index).radius"] = "The radius must be from 50 m to 50 km (50 to 50,000 metres)."
            }
        }
        return errors
    }

    /// A point just outside every area, for trying the fence from outside: north of an area's
    /// edge by 2 km (or further, when another area is there), nil when every try lands inside.
    public func pointOutside() -> GeoPoint? {
        for area in areas {
            for margin in [2_000.0, 10_000, 50_000, 250_000] {
                let latitude = area.latitude + (area.radiusMeters + margin) / Self.metresPerDegreeOfLatitude
                guard latitude <= 90 else { continue }
                let point = GeoPoint(latitude: latitude, longitude: area.longitude)
                if !test(point).isInside { return point }
            }
        }
        return nil
    }

    static let metresPerDegreeOfLatitude = 111_320.0

    /// Whether `point` is inside any area (on the boundary counts as inside), and how far it
    /// is from the nearest area's edge (negative inside).
    public func test(_ point: GeoPoint) -> GeofenceTestResult {
        let measured = areas.map { area in (area, GeoPoint.distanceMeters(from: area.centre, to: point) - area.radiusMeters) }
        guard let nearest = measured.min(by: { $0.1 < $1.1 }) else {
            return GeofenceTestResult(isInside: false, nearestAreaName: "", distanceToNearestEdgeMeters: .infinity)
        }
        return GeofenceTestResult(isInside: nearest.1 <= 0, nearestAreaName: nearest.0.name, distanceToNearestEdgeMeters: nearest.1)
    }
}

public struct GeofenceTestResult: Equatable, Sendable {
    public let isInside: Bool
    public let nearestAreaName: String
    /// Distance from the nearest area's edge: zero or negative inside, positive outside.
    public let distanceToNearestEdgeMeters: Double
}

extension PayloadKind {
    public static var geofence: PayloadKind { Geofence.kind }
}

extension Geofence: SDKPayloadSettings {
    /// The areas of every profile.
    public static func combine(_ found: [Sourced<Geofence>]) -> Combined<Geofence> {
        Combined(Geofence(areas: found.flatMap(\.value.areas)), from: found)
    }

    /// A device's stored policy holds the areas themselves.
    public static func encodeHeld(_ held: [Geofence], to container: inout KeyedEncodingContainer<PolicyKey>) throws {
        try container.encodeIfPresent(held.first?.areas, forKey: PolicyKey(policyKey))
    }

    public static func decodeHeld(from container: KeyedDecodingContainer<PolicyKey>) throws -> [Geofence] {
        try container.decodeIfPresent([Area].self, forKey: PolicyKey(policyKey)).map { [Geofence(areas: $0)] } ?? []
    }

    public static let sdkKey = "Geofence"

    public var sdkEntry: PropertyList {
        .dictionary([("Areas", .array(areas.map { area in
            .dictionary([("Name", .string(area.name)), ("Latitude", .real(area.latitude)),
                         ("Longitude", .real(area.longitude)), ("Radius", .real(area.radiusMeters))])
        }))])
    }

    public init(sdkEntry entry: SDKEntry) throws {
        self.init(areas: try entry.dictionaries("Areas").map { area in
            Area(name: try area.string("Name"), latitude: try area.number("Latitude"), longitude: try area.number("Longitude"),
                 radiusMeters: try area.number("Radius"))
        })
    }
}
