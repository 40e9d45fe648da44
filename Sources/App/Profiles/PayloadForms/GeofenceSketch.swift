import Domain
import Foundation

/// A small SVG map of geofence areas, drawn on the server: circles to scale in a local
/// equirectangular projection, which is accurate enough at the size of a city.
enum GeofenceSketch {
    static let size = 320.0

    static func svg(areas: [Geofence.Area], point: GeoPoint?) -> String {
        guard let first = areas.first else { return "" }
        // Longitudes are unwrapped around the first area so a set spanning the antimeridian
        // is drawn together rather than at both edges.
        func unwrap(_ longitude: Double) -> Double {
            var value = longitude
            while value - first.longitude > 180 { value -= 360 }
            while value - first.longitude < -180 { value += 360 }
            return value
        }
        let meanLatitude = areas.map(\.latitude).reduce(0, +) / Double(areas.count)
        let metersPerDegreeLatitude = 111_320.0
        let metersPerDegreeLongitude = max(1, metersPerDegreeLatitude * cos(meanLatitude * .pi / 180))
        // Everything in metres east/north of the first area's centre.
        func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
            ((unwrap(longitude) - first.longitude) * metersPerDegreeLongitude, (latitude - first.latitude) * metersPerDegreeLatitude)
        }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for area in areas {
            let centre = project(latitude: area.latitude, longitude: area.longitude)
            minX = min(minX, centre.x - area.radiusMeters); maxX = max(maxX, centre.x + area.radiusMeters)
            minY = min(minY, centre.y - area.radiusMeters); maxY = max(maxY, centre.y + area.radiusMeters)
        }
        if let point {
            let p = project(latitude: point.latitude, longitude: point.longitude)
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let span = max(maxX - minX, maxY - minY, 100) * 1.1
        let scale = size / span
        let centreX = (minX + maxX) / 2, centreY = (minY + maxY) / 2
        func screen(_ x: Double, _ y: Double) -> (Double, Double) {
            (size / 2 + (x - centreX) * scale, size / 2 - (y - centreY) * scale)
        }
        var parts = ["<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(size)) \(Int(size))\" class=\"geofence-sketch\" role=\"img\" aria-label=\"Sketch of the geofence areas\">",
                     "<rect width=\"100%\" height=\"100%\" class=\"sketch-ground\"/>"]
        for area in areas {
            let centre = project(latitude: area.latitude, longitude: area.longitude)
            let (x, y) = screen(centre.x, centre.y)
            parts.append("<circle cx=\"\(fmt(x))\" cy=\"\(fmt(y))\" r=\"\(fmt(max(2, area.radiusMeters * scale)))\" class=\"sketch-area\"/>")
            parts.append("<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" class=\"sketch-label\">\(HTMLText.escape(area.name))</text>")
        }
        if let point {
            let p = project(latitude: point.latitude, longitude: point.longitude)
            let (x, y) = screen(p.x, p.y)
            parts.append("<circle cx=\"\(fmt(x))\" cy=\"\(fmt(y))\" r=\"5\" class=\"sketch-point\"/>")
        }
        parts.append("<text x=\"8\" y=\"\(Int(size) - 8)\" class=\"sketch-scale\">width ≈ \(GeofenceForm.describeDistance(span))</text>")
        parts.append("</svg>")
        return parts.joined()
    }

    private static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }
}
