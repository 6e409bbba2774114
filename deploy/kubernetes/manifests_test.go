// Package kubernetes holds the Kubernetes manifests' test: every manifest
// decodes strictly into the k8s.io/api types, both kustomizations render
// with the kustomize API, and the rendered objects have the properties
// the deployment relies on. It is a package of its own so that the
// Kubernetes modules are needed by this test only, never by bashbox.
package kubernetes

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	yamlv3 "gopkg.in/yaml.v3"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/bashbox/bashbox/config"
)

// decodeStrict decodes one manifest into the type of its kind, refusing
// unknown fields.
func decodeStrict(t *testing.T, name string, doc []byte) any {
	t.Helper()
	var head struct {
		Kind string `json:"kind"`
	}
	if err := yaml.Unmarshal(doc, &head); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var obj any
	switch head.Kind {
	case "Deployment":
		obj = &appsv1.Deployment{}
	case "Service":
		obj = &corev1.Service{}
	case "ConfigMap":
		obj = &corev1.ConfigMap{}
	case "Secret":
		obj = &corev1.Secret{}
	case "PersistentVolumeClaim":
		obj = &corev1.PersistentVolumeClaim{}
	case "HorizontalPodAutoscaler":
		obj = &autoscalingv2.HorizontalPodAutoscaler{}
	case "PodDisruptionBudget":
		obj = &policyv1.PodDisruptionBudget{}
	case "NetworkPolicy":
		obj = &networkingv1.NetworkPolicy{}
	case "Kustomization":
		return nil
	default:
		t.Fatalf("%s: kind %q has no check here", name, head.Kind)
	}
	if err := yaml.UnmarshalStrict(doc, obj); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return obj
}

func splitDocs(data []byte) [][]byte {
	var out [][]byte
	for _, d := range bytes.Split(data, []byte("\n---\n")) {
		if len(bytes.TrimSpace(d)) > 0 {
			out = append(out, d)
		}
	}
	return out
}

func TestEveryManifestDecodesStrictly(t *testing.T) {
	n := 0
	err := filepath.Walk(".", func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || filepath.Ext(p) != ".yaml" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, doc := range splitDocs(data) {
			decodeStrict(t, p, doc)
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 14 {
		t.Fatalf("only %d manifests found", n)
	}
}

// rendered is a kustomization's output, by kind.
type rendered struct {
	deploy  *appsv1.Deployment
	svc     *corev1.Service
	cm      *corev1.ConfigMap
	secrets map[string]*corev1.Secret
	pvc     *corev1.PersistentVolumeClaim
	hpa     *autoscalingv2.HorizontalPodAutoscaler
	pdb     *policyv1.PodDisruptionBudget
	netpol  *networkingv1.NetworkPolicy
}

func render(t *testing.T, dir string) *rendered {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize %s: %v", dir, err)
	}
	out, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	r := &rendered{secrets: map[string]*corev1.Secret{}}
	for _, doc := range splitDocs(out) {
		switch o := decodeStrict(t, dir, doc).(type) {
		case *appsv1.Deployment:
			r.deploy = o
		case *corev1.Service:
			r.svc = o
		case *corev1.ConfigMap:
			r.cm = o
		case *corev1.Secret:
			r.secrets[o.Name] = o
		case *corev1.PersistentVolumeClaim:
			r.pvc = o
		case *autoscalingv2.HorizontalPodAutoscaler:
			r.hpa = o
		case *policyv1.PodDisruptionBudget:
			r.pdb = o
		case *networkingv1.NetworkPolicy:
			r.netpol = o
		}
	}
	if r.deploy == nil || r.svc == nil || r.cm == nil || r.pvc == nil || r.hpa == nil || r.pdb == nil || r.netpol == nil || r.secrets["bashbox-tokens"] == nil {
		t.Fatalf("%s renders an incomplete set: %+v", dir, r)
	}
	return r
}

func TestBase(t *testing.T) {
	r := render(t, "base")
	cfg := checkCommon(t, r)
	if cfg.Sessions.Store != config.StoreMemory {
		t.Errorf("the base keeps sessions in %q", cfg.Sessions.Store)
	}
}

func TestProductionOverlay(t *testing.T) {
	r := render(t, "overlays/production")
	cfg := checkCommon(t, r)
	if cfg.Sessions.Store != config.StoreRedis {
		t.Errorf("production keeps sessions in %q", cfg.Sessions.Store)
	}
	c := r.deploy.Spec.Template.Spec.Containers[0]
	if !strings.Contains(strings.Join(c.Args, " "), "--session-store $(BASHBOX_REDIS_URL)") || envFrom(c, "BASHBOX_REDIS_URL") == nil ||
		envFrom(c, "BASHBOX_REDIS_URL").SecretKeyRef == nil || r.secrets[envFrom(c, "BASHBOX_REDIS_URL").SecretKeyRef.Name] == nil {
		t.Errorf("the Redis URL does not come from a Secret: %v", c.Args)
	}
	if r.deploy.Namespace != "bashbox" || *r.deploy.Spec.Replicas < 3 {
		t.Errorf("namespace %q, replicas %d", r.deploy.Namespace, *r.deploy.Spec.Replicas)
	}
	found := false
	for _, m := range r.hpa.Spec.Metrics {
		if m.Type == autoscalingv2.PodsMetricSourceType && m.Pods.Metric.Name == "bashbox_runs_in_flight" && m.Pods.Target.AverageValue != nil {
			found = true
		}
	}
	if !found {
		t.Error("the production HPA does not scale on bashbox_runs_in_flight")
	}
	if !strings.HasPrefix(c.Image, "registry.example.com/bashbox:") {
		t.Errorf("image %q", c.Image)
	}
}

func envFrom(c corev1.Container, name string) *corev1.EnvVarSource {
	for _, e := range c.Env {
		if e.Name == name {
			return e.ValueFrom
		}
	}
	return nil
}

// checkCommon checks what base and overlay share, and returns the
// bashbox.yaml of the ConfigMap, loaded as serve loads it.
func checkCommon(t *testing.T, r *rendered) *config.File {
	t.Helper()
	pod := r.deploy.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	if len(c.Args) < 3 || c.Args[0] != "serve" || c.Args[1] != "--config" {
		t.Errorf("args %v", c.Args)
	}
	// Probes: ready is /readyz, alive is /healthz, on the API port.
	if p := c.ReadinessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/readyz" || p.HTTPGet.Port != intstr.FromString("http") {
		t.Errorf("readiness probe %+v", p)
	}
	if p := c.LivenessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/healthz" {
		t.Errorf("liveness probe %+v", p)
	}
	for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if c.Resources.Requests.Name(res, "").IsZero() || c.Resources.Limits.Name(res, "").IsZero() {
			t.Errorf("no %s request and limit", res)
		}
	}
	if e := envFrom(c, "GOMEMLIMIT"); e == nil || e.ResourceFieldRef == nil || e.ResourceFieldRef.Resource != "limits.memory" {
		t.Errorf("GOMEMLIMIT is not the memory limit: %+v", e)
	}
	if e := envFrom(c, "BASHBOX_TOKEN"); e == nil || e.SecretKeyRef == nil || r.secrets[e.SecretKeyRef.Name] == nil ||
		r.secrets[e.SecretKeyRef.Name].StringData[e.SecretKeyRef.Key] == "" {
		t.Errorf("the token does not come from the Secret: %+v", e)
	}
	// Security: non-root, read-only root, RuntimeDefault seccomp, no
	// capabilities, no privilege escalation.
	psc, sc := pod.SecurityContext, c.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("pod securityContext %+v", psc)
	}
	if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
		sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation || sc.Capabilities == nil ||
		len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" || len(sc.Capabilities.Add) != 0 ||
		sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("container securityContext %+v", sc)
	}
	// Volumes: the config from the ConfigMap, the repository from the PVC
	// read-only, scratch in an emptyDir.
	vols := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		vols[v.Name] = v
	}
	mounts := map[string]corev1.VolumeMount{}
	for _, m := range c.VolumeMounts {
		mounts[m.Name] = m
		if _, ok := vols[m.Name]; !ok {
			t.Errorf("mount %s has no volume", m.Name)
		}
	}
	if v := vols["config"]; v.ConfigMap == nil || v.ConfigMap.Name != r.cm.Name || !mounts["config"].ReadOnly {
		t.Errorf("config volume %+v", v)
	}
	if v := vols["repo"]; v.PersistentVolumeClaim == nil || v.PersistentVolumeClaim.ClaimName != r.pvc.Name || !v.PersistentVolumeClaim.ReadOnly || !mounts["repo"].ReadOnly {
		t.Errorf("repo volume %+v", v)
	}
	if v := vols["tmp"]; v.EmptyDir == nil || mounts["tmp"].MountPath != "/tmp" {
		t.Errorf("tmp volume %+v", v)
	}
	// Labels: the Service, PDB and NetworkPolicy select the pods.
	podLabels := r.deploy.Spec.Template.Labels
	selects := func(sel map[string]string) bool {
		for k, v := range sel {
			if podLabels[k] != v {
				return false
			}
		}
		return len(sel) > 0
	}
	if !selects(r.deploy.Spec.Selector.MatchLabels) || !selects(r.svc.Spec.Selector) || !selects(r.pdb.Spec.Selector.MatchLabels) || !selects(r.netpol.Spec.PodSelector.MatchLabels) {
		t.Error("a selector does not match the pod's labels")
	}
	if len(r.svc.Spec.Ports) != 1 || r.svc.Spec.Ports[0].TargetPort != intstr.FromString("http") {
		t.Errorf("service ports %+v", r.svc.Spec.Ports)
	}
	if r.hpa.Spec.ScaleTargetRef.Kind != "Deployment" || r.hpa.Spec.ScaleTargetRef.Name != r.deploy.Name || r.hpa.Spec.MinReplicas == nil || *r.hpa.Spec.MinReplicas < 2 {
		t.Errorf("hpa %+v", r.hpa.Spec)
	}
	if r.pdb.Spec.MaxUnavailable == nil && r.pdb.Spec.MinAvailable == nil {
		t.Error("the PDB bounds nothing")
	}
	checkNetworkPolicy(t, r.netpol, c)
	cfg := loadConfig(t, r.cm.Data["bashbox.yaml"])
	// The grace period covers the drain and the preStop pause.
	grace := time.Duration(*pod.TerminationGracePeriodSeconds) * time.Second
	pause := time.Duration(0)
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
		pause = time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
	}
	if grace < cfg.Server.DrainTimeout+pause+5*time.Second {
		t.Errorf("terminationGracePeriodSeconds %v does not cover drain_timeout %v and the preStop pause %v", grace, cfg.Server.DrainTimeout, pause)
	}
	if !strings.HasSuffix(cfg.Server.HTTP, fmt.Sprint(":", c.Ports[0].ContainerPort)) || c.Ports[0].Name != "http" {
		t.Errorf("server.http %q against container port %+v", cfg.Server.HTTP, c.Ports)
	}
	return cfg
}

// checkNetworkPolicy: ingress to the API port only; egress to Redis and
// DNS only.
func checkNetworkPolicy(t *testing.T, np *networkingv1.NetworkPolicy, c corev1.Container) {
	t.Helper()
	if len(np.Spec.PolicyTypes) != 2 {
		t.Errorf("policy types %v: both Ingress and Egress are needed, or the other direction is open", np.Spec.PolicyTypes)
	}
	if len(np.Spec.Ingress) != 1 || len(np.Spec.Ingress[0].Ports) != 1 || np.Spec.Ingress[0].Ports[0].Port.IntValue() != int(c.Ports[0].ContainerPort) {
		t.Errorf("ingress %+v", np.Spec.Ingress)
	}
	allowed := map[int]bool{6379: true, 53: true}
	for _, e := range np.Spec.Egress {
		if len(e.To) == 0 || len(e.Ports) == 0 {
			t.Errorf("egress rule open to anything: %+v", e)
		}
		for _, p := range e.Ports {
			if !allowed[p.Port.IntValue()] {
				t.Errorf("egress to port %v", p.Port)
			}
		}
		for _, to := range e.To {
			if to.IPBlock != nil || (to.PodSelector == nil && to.NamespaceSelector == nil) {
				t.Errorf("egress peer %+v", to)
			}
		}
	}
}

// loadConfig loads the ConfigMap's bashbox.yaml as serve would, with its
// host directories made under a temporary root.
func loadConfig(t *testing.T, text string) *config.File {
	t.Helper()
	root := t.TempDir()
	var raw struct {
		Volumes map[string]struct {
			Host string `yaml:"host"`
		} `yaml:"volumes"`
	}
	if err := yamlv3.Unmarshal([]byte(text), &raw); err != nil {
		t.Fatal(err)
	}
	for _, v := range raw.Volumes {
		if v.Host != "" {
			os.MkdirAll(filepath.Join(root, v.Host), 0o755)
			text = strings.ReplaceAll(text, "host: "+v.Host, "host: "+filepath.Join(root, v.Host))
		}
	}
	t.Setenv("BASHBOX_TOKEN", "test")
	cfg, err := config.Parse("bashbox.yaml (ConfigMap)", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
