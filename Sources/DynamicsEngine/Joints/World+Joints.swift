// Reading and changing live joints through their ids.

extension World {
    // MARK: Joints

    package func jointDef(_ id: JointID) -> JointDef? { isValid(id) ? joints[Int(id.index)].def : nil }

    /// Replaces a joint's tunable parameters (lengths, spring, limits, motor, target) keeping its
    /// bodies, kind and accumulated impulses. Wakes the bodies.
    package func updateJoint(_ id: JointID, _ change: (inout JointDef) -> Void) {
        guard isValid(id) else { return }
        var d = joints[Int(id.index)].def
        let kind = d.kind, a = d.bodyA, b = d.bodyB
        change(&d)
        d.kind = kind; d.bodyA = a; d.bodyB = b
        d.localAxisA = d.localAxisA.normalized == .zero ? Vec2(1, 0) : d.localAxisA.normalized
        joints[Int(id.index)].def = d
        wake(bodyIndex: joints[Int(id.index)].bodyA)
        wake(bodyIndex: joints[Int(id.index)].bodyB)
    }

    /// World anchor points of a joint (pt).
    package func jointAnchors(_ id: JointID) -> (Vec2, Vec2) {
        guard isValid(id) else { return (.zero, .zero) }
        let j = joints[Int(id.index)]
        let a = bodies[Int(j.bodyA)].transform.apply(j.def.localAnchorA)
        let b = bodies[Int(j.bodyB)].transform.apply(j.def.localAnchorB)
        return (a, j.def.kind == .target ? j.def.target : b)
    }

    /// Current revolute angle (rad) of B relative to A minus the reference angle.
    package func jointAngle(_ id: JointID) -> Float {
        guard isValid(id) else { return 0 }
        let j = joints[Int(id.index)]
        return unwindAngle(relativeAngle(bodies[Int(j.bodyA)].transform.q, bodies[Int(j.bodyB)].transform.q) - j.def.referenceAngle)
    }
}
