import Domain
import Foundation
import Mustache

/// The device page's answer to "am I outside the geofence?": the device's own areas, where its
/// newest log lines (or its simulator) put it and what that means, and any point helpdesk
/// types in — checked against the areas of this device's effective policy, read only, so every
/// role that sees the device may ask.
struct GeofenceCheckView {
    struct Area {
        let name: String
        let radius: String
        let centre: String
    }

    /// A place the console knows the device was, and what the fence says of it.
    struct Known {
        let source: String
        let answer: String
        let isInside: Bool
    }

    let areas: [Area]
    let known: [Known]
    let latitude: String
    let longitude: String
    let latitudeError: String?
    let longitudeError: String?
    /// The typed point's answer; nil until a point is asked about (or while it is refused).
    let answer: String?
    let answerIsInside: Bool

    /// The query's names: the form asks by GET, so the answer has an address helpdesk can share.
    static let latitudeName = "latitude", longitudeName = "longitude"

    /// Nil when no geofence reaches the device.
    init?(fence: Geofence?, recentLogs: [LogReader.Row], simulatorLocation: GeoPoint?, asked: (latitude: String, longitude: String), now: Date) {
        guard let fence, !fence.areas.isEmpty else { return nil }
        areas = fence.areas.map { Area(name: $0.name, radius: GeoPoint.describe(meters: $0.radiusMeters), centre: Self.text($0.centre)) }
        var known: [Known] = []
        // Newest first: the first line that says where the device was.
        for row in recentLogs {
            guard let point = GeoPoint.firstMentioned(in: row.line.message), let explained = GeofenceExplanation(point, against: fence) else { continue }
            known.append(Known(source: "Its log line of \(DisplayTime.relative(row.line.loggedAt, now: now)) puts it at \(Self.text(point)).",
                               answer: explained.sentence, isInside: explained.isInside))
            break
        }
        if let point = simulatorLocation, let explained = GeofenceExplanation(point, against: fence) {
            known.append(Known(source: "Its simulator stands at \(Self.text(point)).", answer: explained.sentence, isInside: explained.isInside))
        }
        self.known = known

        latitude = asked.latitude.trimmingWhitespace()
        longitude = asked.longitude.trimmingWhitespace()
        let isAsked = !latitude.isEmpty || !longitude.isEmpty
        let north = DecimalNumber.parse(latitude), east = DecimalNumber.parse(longitude)
        latitudeError = !isAsked ? nil : north.map { (-90...90).contains($0) ? nil : "Latitude runs from −90 to 90 degrees." }
            ?? "Type the latitude in decimal degrees, such as 53.4662."
        longitudeError = !isAsked ? nil : east.map { (-180...180).contains($0) ? nil : "Longitude runs from −180 to 180 degrees." }
            ?? "Type the longitude in decimal degrees, such as -2.2398."
        if isAsked, latitudeError == nil, longitudeError == nil, let north, let east,
           let explained = GeofenceExplanation(GeoPoint(latitude: north, longitude: east), against: fence) {
            answer = explained.sentence
            answerIsInside = explained.isInside
        } else {
            answer = nil
            answerIsInside = false
        }
    }

    private static func text(_ point: GeoPoint) -> String {
        "\(NumberText.plain(point.latitude)), \(NumberText.plain(point.longitude))"
    }
}

// Part of the device page, which answers the template engine without reflection.
extension GeofenceCheckView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "areas": areas
        case "known": known
        case "latitude": latitude
        case "longitude": longitude
        case "latitudeError": latitudeError
        case "longitudeError": longitudeError
        case "answer": answer
        case "answerIsInside": answerIsInside
        default: nil
        }
    }
}
