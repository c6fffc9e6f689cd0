package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/randfill"
)

// fixture is one object as the apiserver would send it in both encodings.
type fixture struct {
	Name  string `json:"name"`
	Watch bool   `json:"watch,omitempty"` // Proto is one watch frame, JSON one watch line
	Proto []byte `json:"proto"`           // the whole answer: k8s\0 magic + runtime.Unknown
	JSON  string `json:"json"`            // encoding/json of the same object
}

// randomPerKind is how many randomly filled objects each kind gets (the -random
// flag; 1 for the committed fixtures); the kinds controllers read most get
// hotExtra more.
var randomPerKind = 1

// seedStart is the first random seed (the -seed flag).
var seedStart int64 = 1

const hotExtra = 4

var hotKinds = map[string]bool{
	"v1 Pod": true, "v1 Node": true, "v1 ConfigMap": true, "v1 Secret": true, "v1 Event": true,
	"v1 Service": true, "apps/v1 Deployment": true, "coordination.k8s.io/v1 Lease": true,
	"resource.k8s.io/v1 ResourceSlice": true, "resource.k8s.io/v1 ResourceClaim": true,
	"discovery.k8s.io/v1 EndpointSlice": true, "v1 PodList": true,
	"meta.k8s.io/v1 PartialObjectMetadataList": true,
}

func writeFixtures(path string) error {
	var out []fixture
	for i, sample := range samples {
		f, err := fromJSON(sample)
		if err != nil {
			return fmt.Errorf("sample %d: %w", i, err)
		}
		out = append(out, f)
		w, err := watchFrame(f, []string{"ADDED", "MODIFIED", "DELETED", "BOOKMARK"}[i%4])
		if err != nil {
			return fmt.Errorf("sample %d: %w", i, err)
		}
		out = append(out, w)
	}
	kinds := registered()
	seed := seedStart
	for _, av := range sortedKeys(kinds) {
		for _, kind := range sortedKeys(kinds[av]) {
			if _, err := newMessageSet().message(scheme.Scheme.AllKnownTypes()[kinds[av][kind]]); err != nil {
				continue // not decodable (listed in the schema's header)
			}
			count := randomPerKind
			if hotKinds[av+" "+kind] {
				count += hotExtra
			}
			for n := 0; n < count; n++ {
				gvk := kinds[av][kind]
				obj, err := scheme.Scheme.New(gvk)
				if err != nil {
					return err
				}
				filler(seed).Fill(obj)
				seed++
				f, err := encodeBoth(obj, gvk, fmt.Sprintf("random %s %s #%d", av, kind, n))
				if err != nil {
					// Kinds the apiserver never sends alone (options) may not encode.
					fmt.Fprintln(os.Stderr, "skipped:", err)
					continue
				}
				out = append(out, f)
			}
		}
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err := json.NewEncoder(zw).Encode(out); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// fromJSON decodes a hand-written sample into its typed object.
func fromJSON(sample string) (fixture, error) {
	var tm metav1.TypeMeta
	if err := json.Unmarshal([]byte(sample), &tm); err != nil {
		return fixture{}, err
	}
	gvk := schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind)
	obj, err := scheme.Scheme.New(gvk)
	if err != nil {
		return fixture{}, err
	}
	if err := json.Unmarshal([]byte(sample), obj); err != nil {
		return fixture{}, err
	}
	return encodeBoth(obj, gvk, "sample "+tm.APIVersion+" "+tm.Kind)
}

// encodeBoth encodes obj as the apiserver does: the object read back from its
// protobuf form (as from etcd), then written once as protobuf and once as JSON.
func encodeBoth(obj runtime.Object, gvk schema.GroupVersionKind, name string) (fixture, error) {
	ser := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	enc := scheme.Codecs.EncoderForVersion(ser, gvk.GroupVersion())
	first, err := runtime.Encode(enc, obj)
	if err != nil {
		return fixture{}, fmt.Errorf("%s: %w", name, err)
	}
	stored, _, err := ser.Decode(first, nil, nil)
	if err != nil {
		return fixture{}, fmt.Errorf("%s: %w", name, err)
	}
	proto, err := runtime.Encode(enc, stored)
	if err != nil {
		return fixture{}, fmt.Errorf("%s: %w", name, err)
	}
	stored.GetObjectKind().SetGroupVersionKind(gvk)
	if list, ok := stored.(*metav1.PartialObjectMetadataList); ok {
		// The apiserver types each item of a metadata-only list in JSON.
		for i := range list.Items {
			list.Items[i].SetGroupVersionKind(gvk.GroupVersion().WithKind("PartialObjectMetadata"))
		}
	}
	js, err := json.Marshal(stored)
	if err != nil {
		return fixture{}, fmt.Errorf("%s: %w", name, err)
	}
	return fixture{Name: name, Proto: proto, JSON: string(js)}, nil
}

// filler fills objects randomly but validly: the custom types get values their
// own marshallers accept, strings are short and mix ASCII with other runes.
func filler(seed int64) *randfill.Filler {
	return randfill.New().RandSource(rand.NewSource(seed)).NilChance(0.3).NumElements(1, 2).MaxDepth(12).Funcs(
		func(s *string, c randfill.Continue) {
			runes := []rune("abcXYZ019-_./:é漢🙂\"\\<>&\n")
			n := c.Intn(8)
			out := make([]rune, n)
			for i := range out {
				out[i] = runes[c.Intn(len(runes))]
			}
			*s = string(out)
		},
		func(t *metav1.Time, c randfill.Continue) {
			if c.Intn(5) == 0 {
				*t = metav1.Time{}
				return
			}
			*t = metav1.NewTime(time.Unix(c.Int63n(4e9)-1e9, 0))
		},
		func(t *metav1.MicroTime, c randfill.Continue) {
			if c.Intn(5) == 0 {
				*t = metav1.MicroTime{}
				return
			}
			*t = metav1.NewMicroTime(time.Unix(c.Int63n(4e9)-1e9, c.Int63n(1e6)*1000))
		},
		func(d *metav1.Duration, c randfill.Continue) {
			d.Duration = time.Duration(c.Int63n(1e14) - 1e12)
		},
		func(q *resource.Quantity, c randfill.Continue) {
			suffixes := []string{"", "m", "k", "Ki", "Mi", "Gi", "M", "G", "e3"}
			*q = resource.MustParse(fmt.Sprintf("%d%s", c.Int63n(1e6), suffixes[c.Intn(len(suffixes))]))
		},
		func(x *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*x = intstr.FromInt32(c.Int31() - 1<<30)
			} else {
				*x = intstr.FromString(fmt.Sprintf("p%d%%", c.Intn(100)))
			}
		},
		func(r *runtime.RawExtension, c randfill.Continue) {
			if c.Intn(3) > 0 {
				r.Raw = []byte(fmt.Sprintf(`{"apiVersion":"v1","kind":"K","n":%d,"s":"é\u00e9"}`, c.Intn(1000)))
			}
		},
		func(f *metav1.FieldsV1, c randfill.Continue) {
			f.SetRawString(fmt.Sprintf(`{"f:metadata":{"f:labels":{"f:k%d":{}}}}`, c.Intn(9)))
		},
	)
}

// watchFrame wraps a fixture as the apiserver's watch handler does: a
// metav1.WatchEvent whose object holds the enveloped protobuf object, written
// by the stream (raw, envelope-free) serializer; the frame excludes the
// 4-byte length prefix of the length-delimited framer.
func watchFrame(f fixture, eventType string) (fixture, error) {
	raw := protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme)
	event := &metav1.WatchEvent{Type: eventType, Object: runtime.RawExtension{Raw: f.Proto}}
	var buf bytes.Buffer
	if err := raw.Encode(event, &buf); err != nil {
		return fixture{}, err
	}
	line := fmt.Sprintf(`{"type":%q,"object":%s}`, eventType, f.JSON)
	return fixture{Name: "watch " + f.Name, Watch: true, Proto: buf.Bytes(), JSON: line}, nil
}
