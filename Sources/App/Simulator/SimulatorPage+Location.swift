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
    /// to "Go", shown beside the control. The geofence's verdict is the one the device's SDK
    /// apps act on (`DevicePolicy.geofenceVerdict`), so airplane mode stops it here too.
    static func locationText(_ state: SimulatedDevice) -> String {
        let place = state.location.map { String(format: "%.4f, %.4f", $0.latitude, $0.longitude) } ?? "Location services off"
        switch state.policy.geofenceVerdict(on: state.conditions) {
        case .none, .notKnown:
            return state.location == nil ? place : place + " (no geofence reaches this device)"
        case .inside:
            let area = state.location.map { (state.policy[Geofence.self] ?? Geofence(areas: [])).test($0).nearestAreaName } ?? ""
            return "\(place): inside \(area), so SDK apps open"
        case .outside(_, let reason):
            return "\(place): outside every area; the geofence blocks SDK apps here. \(reason)"
        case .stopped(let reason):
            return state.location == nil ? "Location services off: geofencing stops, so SDK apps open" : "\(place): \(reason)"
        }
    }
}
