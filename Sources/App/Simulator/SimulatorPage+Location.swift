import Domain
import Foundation

/// The location control: where to stand to try the device's geofence, and what the place it
/// stands at means.
extension SimulatorPage {
    /// Where to stand to try the device's geofence: the centre of every area that reaches it,
    /// and one point outside them all; none without a geofence (latitude and longitude still
    /// take any point). The one the device stands at now is selected.
    static func locationPresets(for areas: [Geofence.Area], current: GeoPoint? = nil) -> [Preset] {
        let fence = Geofence(areas: areas)
        var presets = areas.map { Preset(value: "\($0.latitude),\($0.longitude)", label: "\($0.name) (inside)", selected: $0.centre == current) }
        if let outside = fence.pointOutside() {
            let result = fence.test(outside)
            presets.append(Preset(value: "\(outside.latitude),\(outside.longitude)",
                                  label: "Outside every area (\(NumberText.plain((result.distanceToNearestEdgeMeters / 1000).rounded())) km from \(result.nearestAreaName))",
                                  selected: outside == current))
        }
        return presets
    }

    /// Where the device is, and what that means for the geofence that reaches it: the answer
    /// to "Go", shown beside the control.
    static func locationText(_ location: GeoPoint?, areas: [Geofence.Area]) -> String {
        guard let location else {
            return areas.isEmpty ? "Location services off" : "Location services off: geofencing stops, so SDK apps open"
        }
        let place = String(format: "%.4f, %.4f", location.latitude, location.longitude)
        guard !areas.isEmpty else { return place + " (no geofence reaches this device)" }
        let result = Geofence(areas: areas).test(location)
        if result.isInside { return "\(place): inside \(result.nearestAreaName), so SDK apps open" }
        let km = NumberText.plain((result.distanceToNearestEdgeMeters / 100).rounded() / 10)
        return "\(place): outside every area, \(km) km from \(result.nearestAreaName); the geofence blocks SDK apps here"
    }
}
