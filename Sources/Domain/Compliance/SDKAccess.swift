import Foundation

/// Whether a geofence lets SDK apps open where the device is. Geofencing needs location
/// services: while they are off (airplane mode, or turned off) it stops and nothing is
/// enforced — an app opens anywhere rather than being locked out by a place it cannot know.
public enum GeofenceVerdict: Equatable, Sendable {
    /// No geofence applies.
    case none
    case inside
    /// The blocker's reason.
    case outside(nearestArea: String, reason: String)
    case stopped(reason: String)
    /// The device never reported where it is.
    case notKnown
}

/// Whether offline access lets SDK apps open on the device's network: offline access is a
/// setting of its own, whatever the authentication type.
public enum OfflineVerdict: Equatable, Sendable {
    /// No authentication payload applies, or the device is online.
    case none
    /// Offline within the allowed time.
    case allowed
    /// The blocker's reason.
    case blocked(reason: String)
    /// The device never reported whether it is online.
    case notKnown
}

extension DevicePolicy {
    public func geofenceVerdict(on conditions: DeviceConditions) -> GeofenceVerdict {
        guard let areas = self[Geofence.self]?.areas, !areas.isEmpty else { return .none }
        switch conditions.location {
        case nil: return .notKnown
        case .servicesOff(let reason)?: return .stopped(reason: reason)
        case .at(let point)?:
            let result = Geofence(areas: areas).test(point)
            guard !result.isInside else { return .inside }
            return .outside(nearestArea: result.nearestAreaName, reason: "Outside every allowed area: the nearest, \(result.nearestAreaName), is "
                                + "\(GeoPoint.describe(meters: result.distanceToNearestEdgeMeters)) away.")
        }
    }

    public func offlineVerdict(on conditions: DeviceConditions) -> OfflineVerdict {
        guard let auth = self[Authentication.self] else { return .none }
        switch conditions.network {
        case nil: return .notKnown
        case .online?: return .none
        case .offline(let minutes)?:
            guard auth.offlineAccessEnabled else { return .blocked(reason: "Offline access is off: connect to a network to use this app.") }
            guard minutes > auth.maximumOfflineMinutes else { return .allowed }
            return .blocked(reason: "Offline for \(minutes) minutes; this app allows \(auth.maximumOfflineMinutes). Connect to a network to continue.")
        }
    }
}
