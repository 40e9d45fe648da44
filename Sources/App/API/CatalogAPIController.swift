import Domain
import Foundation
import Hummingbird
import Storage

/// Read access to the catalog for scripts: groups, apps, and devices a page at a time.
struct CatalogAPIController {
    let services: Services

    func register(on routes: SecuredRoutes) {
        routes.get("/api/v1/groups", .role(.viewer)) { _, _ in
            let groups = try services.database.read { try $0.fetch(DeviceGroupRecord.query().order(by: "name")) }
            return try .jsonObject(["groups": groups.map {
                ["id": $0.id!.rawValue, "name": $0.name, "parentID": $0.parentID.map { $0.rawValue as Any } ?? NSNull()] as [String: Any]
            }])
        }
        routes.get("/api/v1/apps", .role(.viewer)) { _, _ in
            let apps = try services.database.read { try $0.fetch(AppRecord.query().order(by: "name")) }
            return try .jsonObject(["apps": apps.map {
                ["id": $0.id!.rawValue, "name": $0.name, "bundleID": $0.bundleID, "isManaged": $0.isManaged,
                 "isSDKBuilt": $0.isSDKBuilt, "hasAssessmentEntitlement": $0.hasAssessmentEntitlement] as [String: Any]
            }])
        }
        routes.get("/api/v1/devices", .role(.viewer)) { request, _ in
            let after = request.uri.queryParameters["after"].flatMap { RecordID<DeviceRecord>(String($0)) }
            let group = request.uri.queryParameters["group"].flatMap { RecordID<DeviceGroupRecord>(String($0)) }
            let limit = min(500, max(1, request.uri.queryParameters["limit"].flatMap { Int(String($0)) } ?? 100))
            let devices = try services.database.read {
                try $0.fetch(DeviceRecord.self, DevicesController.pageQuery(group: group, after: after, limit: limit + 1))
            }
            let page = devices.prefix(limit)
            var body: [String: Any] = ["devices": page.map {
                ["id": $0.id!.rawValue, "name": $0.name, "model": $0.model.rawValue, "osVersion": $0.osVersion,
                 "serialNumber": $0.serialNumber, "udid": $0.udid, "isSupervised": $0.isSupervised,
                 "groupID": $0.groupID.map { $0.rawValue as Any } ?? NSNull(), "installedApps": $0.installedApps] as [String: Any]
            }]
            if devices.count > limit, let last = page.last?.id { body["next"] = "/api/v1/devices?after=\(last)&limit=\(limit)" + (group.map { "&group=\($0)" } ?? "") }
            return try .jsonObject(body)
        }
    }
}
