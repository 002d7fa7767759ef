import Foundation

// A scene file is a list of changes: the diff between the scene at two frames, and applying it.
// Written as JSON lines by TraceSceneChange+JSONWriting.swift, read by TraceSceneChange+JSONReading.swift.

/// One line of a scene file: from frame `frame` on, one part of the scene is as given.
struct TraceSceneChange: Equatable {
    enum Kind: Equatable {
        case referenceBounds(CGRect?)
        case boundaries([TraceScene.Boundary])
        case item(position: Int, TraceScene.Item)
        case attachments([TraceScene.Attachment])
        case snapPoints([CGPoint])
    }

    /// The CSV `frame` number from which the change holds.
    var frame: Int
    var kind: Kind

    /// The most items a scene file may place (a bad position must not allocate without limit).
    static let maximumItemPosition = 10_000_000

    /// Applies the change to `scene`.
    func apply(to scene: inout TraceScene) {
        switch kind {
        case .referenceBounds(let rect): scene.referenceBounds = rect
        case .boundaries(let list): scene.boundaries = list
        case .attachments(let list): scene.attachments = list
        case .snapPoints(let points): scene.snapPoints = points
        case .item(let position, let item):
            if position < scene.items.count {
                scene.items[position] = item
            } else {
                while scene.items.count < position { scene.items.append(TraceScene.Item(key: "", parts: [])) }
                scene.items.append(item)
            }
        }
    }

    /// The changes that turn `old` into `new` (an empty list when they are equal), in a fixed
    /// order: bounds, boundaries, items by position, attachments, snap points. Items past the
    /// end of `new` are not retracted: frames simply have no rows for them.
    static func changes(from old: TraceScene?, to new: TraceScene, frame: Int) -> [TraceSceneChange] {
        var out: [TraceSceneChange] = []
        if old == nil || old!.referenceBounds != new.referenceBounds {
            out.append(TraceSceneChange(frame: frame, kind: .referenceBounds(new.referenceBounds)))
        }
        if old == nil ? !new.boundaries.isEmpty : old!.boundaries != new.boundaries {
            out.append(TraceSceneChange(frame: frame, kind: .boundaries(new.boundaries)))
        }
        for (position, item) in new.items.enumerated() {
            if let old, position < old.items.count, old.items[position] == item { continue }
            out.append(TraceSceneChange(frame: frame, kind: .item(position: position, item)))
        }
        if old == nil ? !new.attachments.isEmpty : old!.attachments != new.attachments {
            out.append(TraceSceneChange(frame: frame, kind: .attachments(new.attachments)))
        }
        if old == nil ? !new.snapPoints.isEmpty : old!.snapPoints != new.snapPoints {
            out.append(TraceSceneChange(frame: frame, kind: .snapPoints(new.snapPoints)))
        }
        return out
    }
}
