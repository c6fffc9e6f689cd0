import { describe, expect, it } from 'vitest';
import { isValidTemplate } from '../name-templates.js';
import { NameTemplateError } from './template-error.js';

const disk = {
  VmName: 'My-VM',
  TargetVmName: 'my-vm',
  PlanName: 'plan',
  DiskIndex: 1,
  RootDiskIndex: 0,
  VmId: 'vm-7',
};
const render = (t: string, fields: Record<string, string | number> = disk) =>
  isValidTemplate(t, { typeName: 'Data', fields });
const reason = (t: string) => {
  try {
    render(t);
  } catch (e) {
    return NameTemplateError.isInstance(e) ? `${e.reason}: ${e.message}` : `other: ${e}`;
  }
  return 'ok';
};

describe('name templates (Go text/template with sprig)', () => {
  it("Forklift's documented examples", () => {
    expect(render('{{.VmName}}-disk-{{.DiskIndex}}')).toBe('My-VM-disk-1');
    expect(
      render('{{if eq .DiskIndex .RootDiskIndex}}root{{else}}data{{end}}-{{.DiskIndex}}'),
    ).toBe('data-1');
    expect(
      render('{{if eq .DiskIndex .RootDiskIndex}}root{{else}}data{{end}}', {
        ...disk,
        DiskIndex: 0,
      }),
    ).toBe('root');
    expect(render('{{.PlanName}}-{{.VmName | lower}}-disk-{{.DiskIndex}}')).toBe(
      'plan-my-vm-disk-1',
    );
    expect(render('{{ printf "%s-%03d" (lower .VmName) .DiskIndex }}')).toBe('my-vm-001');
    expect(render('{{ .VmName | lower | replace "-" "" | trunc 3 }}')).toBe('myv');
    expect(render('{{ trunc 4 .TargetVmName }}-{{ upper .VmId }}')).toBe('my-v-VM-7');
    expect(render('{{- " pad " | trim -}}  x')).toBe('padx');
    const net = {
      NetworkName: 'ovn',
      NetworkNamespace: 'ns',
      NetworkType: 'Multus',
      NetworkIndex: 2,
    };
    expect(
      render('{{if eq .NetworkType "Pod"}}pod{{else}}multus-{{.NetworkIndex}}{{end}}', net),
    ).toBe('multus-2');
    expect(render('net-{{.NetworkIndex}}', net)).toBe('net-2');
    expect(
      render(
        '{{ if eq .NetworkType "Pod" }}p{{ else if eq .NetworkType "Multus" }}m{{ else }}x{{ end }}',
        net,
      ),
    ).toBe('m');
  });

  it('functions: printf verbs, comparisons, boolean logic, math, sprig strings', () => {
    expect(render('{{printf "%d|%5s|%-4d|%x|%q|%v" 42 "ab" 7 255 "z" true}}')).toBe(
      '42|   ab|7   |ff|"z"|true',
    );
    expect(render('{{printf "%d" "x"}}{{printf "%s"}}')).toBe('%!d(string=x)%!s(MISSING)');
    expect(render('{{if and (gt .DiskIndex 0) (not (eq .PlanName "x"))}}y{{end}}')).toBe('y');
    expect(render('{{if or (lt .DiskIndex 0) (ne .VmId "vm-7")}}y{{else}}n{{end}}')).toBe('n');
    expect(
      render(
        '{{add .DiskIndex 1}}-{{sub 10 .DiskIndex}}-{{mul 2 3}}-{{div 7 2}}-{{mod 7 2}}-{{add1 .DiskIndex}}',
      ),
    ).toBe('2-9-6-3-1-2');
    expect(
      render(
        '{{substr 0 2 .VmId}}{{trunc -2 "abcd"}}{{trimPrefix "vm-" .VmId}}{{trimSuffix "-7" .VmId}}',
      ),
    ).toBe('vmcd7vm');
    expect(
      render(
        '{{title "hello world"}}|{{repeat 2 "ab"}}|{{nospace "a b c"}}|{{trimAll "-" "--x--"}}',
      ),
    ).toBe('Hello World|abab|abc|x');
    expect(render('{{len "abc"}}{{len "é"}}')).toBe('32');
    expect(render('{{mustRegexReplaceAll "[^a-z0-9]+" (lower .VmName) "-"}}')).toBe('my-vm');
    // Go's ${1} group references in the replacement.
    const swap = ['{{mustRegexReplaceAll "(v)(m)" .VmId "', '$', '{2}', '$', '{1}"}}'].join('');
    expect(render(swap)).toBe('mv-7');
    expect(render('{{if contains "VM" .VmName}}{{hasPrefix "My" .VmName}}{{end}}')).toBe('true');
    expect(render('{{/* a comment */}}x{{print 1 2 "a" 3}}')).toBe('x1 2a3');
  });

  it('errors: parse errors, unknown functions and fields, wrong argument types, empty output', () => {
    expect(reason('{{.VmName')).toBe('TemplateNotValid: template: unclosed action');
    expect(reason('{{nope .VmName}}')).toBe(
      'TemplateNotValid: template: function "nope" not defined',
    );
    expect(reason('{{.Nope}}')).toBe(
      "TemplateNotValid: template: can't evaluate field Nope in type Data",
    );
    expect(reason('{{if .VmName}}x')).toBe(
      'TemplateNotValid: template: unexpected EOF: missing {{end}}',
    );
    expect(reason('{{end}}')).toBe('TemplateNotValid: template: unexpected {{end}}');
    expect(reason('{{ .DiskIndex | upper }}')).toBe(
      'TemplateNotValid: template: executing at <upper>: wrong type for value; expected string; got int',
    );
    expect(reason('{{ trunc "3" .VmName }}')).toMatch(
      /at <trunc>: wrong type for value; expected int; got string/,
    );
    expect(reason('{{ eq .DiskIndex "1" }}')).toMatch(
      /error calling eq: incompatible types for comparison/,
    );
    expect(reason('{{ .VmName .PlanName }}')).toMatch(/can't give argument to non-function/);
    expect(reason('{{ range .VmName }}{{end}}')).toMatch(/not supported/);
    expect(reason('{{ (lower .VmName }}')).toMatch(/unclosed left paren/);
    expect(reason('{{ "" }}')).toMatch(/^TemplateOutputEmpty/);
  });
});
