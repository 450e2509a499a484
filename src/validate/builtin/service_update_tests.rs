//! Service updates as scenarios: a stored Service, the object a write would store, and the
//! server's answer.

use super::super::tests::refusal_over_stored;

const SVC: &str = r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default"},"spec":SPEC}"#;
const PREFIX: &str = "The Service \"web\" is invalid: ";

fn svc(spec: &str) -> String {
    SVC.replace("SPEC", spec)
}

fn update(new: &str, old: &str, minor: u8) -> Option<String> {
    refusal_over_stored(&svc(new), Some(&svc(old)), minor)
}

const STORED: &str = r#"{"type":"ClusterIP","clusterIP":"10.0.0.10","clusterIPs":["10.0.0.10"],"ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","selector":{"app":"web"},"ports":[{"port":80,"protocol":"TCP","targetPort":8080}]}"#;

const DUAL: &str = r#"{"type":"ClusterIP","clusterIP":"10.0.0.10","clusterIPs":["10.0.0.10","fd00::10"],"ipFamilies":["IPv4","IPv6"],"ipFamilyPolicy":"RequireDualStack","selector":{"app":"web"},"ports":[{"port":80,"protocol":"TCP"}]}"#;

#[test]
fn a_write_without_the_allocated_fields_keeps_them() {
    let manifest = r#"{"selector":{"app":"web"},"ports":[{"port":80,"targetPort":8080}]}"#;
    assert_eq!(update(manifest, STORED, 37), None);
    assert_eq!(update(STORED, STORED, 30), None);
}

#[test]
fn cluster_ips_without_cluster_ip_on_create() {
    let spec = r#"{"clusterIPs":["10.0.0.10"],"ports":[{"port":80}]}"#;
    assert_eq!(
        super::super::tests::refusal(&svc(spec), None, 33).unwrap(),
        format!("{PREFIX}spec.clusterIPs: Invalid value: []string{{\"10.0.0.10\"}}: must be empty when `clusterIP` is not specified")
    );
}

#[test]
fn changing_the_primary_family_and_address() {
    let new = r#"{"type":"ClusterIP","clusterIP":"fd00::10","ipFamilies":["IPv6"],"ipFamilyPolicy":"SingleStack","clusterIPs":["10.0.0.10"],"selector":{"app":"web"},"ports":[{"port":80}]}"#;
    assert_eq!(
        update(new, STORED, 37).unwrap(),
        format!("{PREFIX}\n* spec.clusterIPs[0]: Invalid value: [\"fd00::10\"]: may not change once set\n* spec.ipFamilies[0]: Invalid value: [\"IPv6\"]: may not change once set")
    );
    assert_eq!(
        update(new, STORED, 33).unwrap(),
        format!("{PREFIX}\n* spec.clusterIPs[0]: Invalid value: []string{{\"fd00::10\"}}: may not change once set\n* spec.ipFamilies[0]: Invalid value: []core.IPFamily{{\"IPv6\"}}: may not change once set")
    );
}

#[test]
fn dual_stack_downgrades_need_single_stack() {
    // SingleStack over the stored addresses: the allocator drops the secondary ones.
    let single = DUAL.replace("RequireDualStack", "SingleStack");
    assert_eq!(update(&single, DUAL, 37), None);
    // Fewer addresses without SingleStack: the allocator's refusal.
    let fewer = DUAL.replace(r#","fd00::10""#, "");
    assert_eq!(
        update(&fewer, DUAL, 37).unwrap(),
        format!("{PREFIX}spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": must be 'SingleStack' to release the secondary cluster IP")
    );
    // A PreferDualStack service stored single-stack stays as it is.
    let prefer = STORED.replace("SingleStack", "PreferDualStack");
    assert_eq!(update(&prefer, &prefer, 37), None);
    // Upgrading a single-stack service: the secondary family and address are allocated.
    let upgrade = STORED.replace("SingleStack", "RequireDualStack");
    assert_eq!(update(&upgrade, STORED, 37), None);
}

#[test]
fn type_changes_wipe_what_the_new_type_does_not_use() {
    let node_port = r#"{"type":"NodePort","clusterIP":"10.0.0.10","clusterIPs":["10.0.0.10"],"ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","externalTrafficPolicy":"Cluster","selector":{"app":"web"},"ports":[{"port":80,"protocol":"TCP","nodePort":30080}]}"#;
    // Back to ClusterIP with the allocated node port and traffic policy still there.
    let cluster_ip = node_port.replace(r#""type":"NodePort""#, r#""type":"ClusterIP""#);
    assert_eq!(update(&cluster_ip, node_port, 37), None);
    // A new node port on a ClusterIP service is the user's and is refused.
    let other = cluster_ip.replace("30080", "30081");
    assert_eq!(
        update(&other, node_port, 37).unwrap(),
        format!(
            "{PREFIX}spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"
        )
    );
    // To ExternalName with the stored IP fields: wiped.
    let external = r#"{"type":"ExternalName","externalName":"db.example.com","clusterIP":"10.0.0.10","clusterIPs":["10.0.0.10"],"ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","ports":[{"port":80,"protocol":"TCP"}]}"#;
    assert_eq!(update(external, STORED, 37), None);
    let changed = external.replace(r#""clusterIP":"10.0.0.10","#, r#""clusterIP":"10.0.0.11","#);
    assert_eq!(
        update(&changed, STORED, 37).unwrap(),
        format!("{PREFIX}spec.clusterIPs: Forbidden: may not be set for ExternalName services")
    );
}

#[test]
fn the_health_check_node_port_is_immutable() {
    let lb = r#"{"type":"LoadBalancer","clusterIP":"10.0.0.10","clusterIPs":["10.0.0.10"],"ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","externalTrafficPolicy":"Local","healthCheckNodePort":31000,"allocateLoadBalancerNodePorts":true,"selector":{"app":"web"},"ports":[{"port":80,"protocol":"TCP","nodePort":30080}]}"#;
    assert_eq!(update(lb, lb, 37), None);
    let without = lb.replace(r#""healthCheckNodePort":31000,"#, "");
    assert_eq!(update(&without, lb, 37), None);
    let moved = lb.replace("31000", "31001");
    assert_eq!(
        update(&moved, lb, 37).unwrap(),
        format!("{PREFIX}spec.healthCheckNodePort: Forbidden: field is immutable")
    );
}

#[test]
fn topology_annotations_agree() {
    let object = r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default","annotations":{"service.kubernetes.io/topology-mode":"Auto","service.kubernetes.io/topology-aware-hints":"Disabled"}},"spec":{"ports":[{"port":80}]}}"#;
    assert_eq!(
        super::super::tests::refusal(object, None, 37).unwrap(),
        format!("{PREFIX}metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: \"Auto\": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified")
    );
    let agreeing = object.replace("Disabled", "Auto");
    assert_eq!(super::super::tests::refusal(&agreeing, None, 37), None);
}
