//! OVF descriptors in each exporter's dialect, for tests of the OVA source.

const ENVELOPE_NS =
  'xmlns="http://schemas.dmtf.org/ovf/envelope/1" xmlns:ovf="http://schemas.dmtf.org/ovf/envelope/1" xmlns:rasd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_ResourceAllocationSettingData" xmlns:vssd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_VirtualSystemSettingData"';

/** VMware ovftool: `vmw:` namespace, `vmx-` system type, UUID-less id, `byte * 2^20` memory, `byte * 2^30` capacity, vmw:Config. */
export const VMWARE_OVF = `<?xml version="1.0" encoding="UTF-8"?>
<Envelope vmw:buildId="build-123" ${ENVELOPE_NS} xmlns:vmw="http://www.vmware.com/schema/ovf">
  <References>
    <File ovf:href="web-01-disk1.vmdk" ovf:id="file1" ovf:size="1024"/>
    <File ovf:href="web-01-disk2.vmdk" ovf:id="file2" ovf:size="2048"/>
  </References>
  <DiskSection>
    <Info>Virtual disk information</Info>
    <Disk ovf:capacity="16" ovf:capacityAllocationUnits="byte * 2^30" ovf:diskId="vmdisk1" ovf:fileRef="file1" ovf:format="http://www.vmware.com/interfaces/specifications/vmdk.html#streamOptimized" ovf:populatedSize="1000000"/>
    <Disk ovf:capacity="2048" ovf:capacityAllocationUnits="byte * 2^20" ovf:diskId="vmdisk2" ovf:fileRef="file2" ovf:format="http://www.vmware.com/interfaces/specifications/vmdk.html#streamOptimized"/>
  </DiskSection>
  <NetworkSection>
    <Info>The list of logical networks</Info>
    <Network ovf:name="VM Network">
      <Description>The VM Network network</Description>
    </Network>
  </NetworkSection>
  <VirtualSystem ovf:id="web-01">
    <Info>A virtual machine</Info>
    <Name>web-01</Name>
    <OperatingSystemSection ovf:id="80" vmw:osType="rhel8_64Guest" ovf:osType="rhel8_64Guest">
      <Info>The kind of installed guest operating system</Info>
    </OperatingSystemSection>
    <VirtualHardwareSection>
      <Info>Virtual hardware requirements</Info>
      <System>
        <vssd:ElementName>Virtual Hardware Family</vssd:ElementName>
        <vssd:InstanceID>0</vssd:InstanceID>
        <vssd:VirtualSystemIdentifier>web-01</vssd:VirtualSystemIdentifier>
        <vssd:VirtualSystemType>vmx-19</vssd:VirtualSystemType>
      </System>
      <Item>
        <rasd:AllocationUnits>hertz * 10^6</rasd:AllocationUnits>
        <rasd:Description>Number of Virtual CPUs</rasd:Description>
        <rasd:ElementName>4 virtual CPU(s)</rasd:ElementName>
        <rasd:InstanceID>1</rasd:InstanceID>
        <rasd:ResourceType>3</rasd:ResourceType>
        <rasd:VirtualQuantity>4</rasd:VirtualQuantity>
        <vmw:CoresPerSocket ovf:required="false">2</vmw:CoresPerSocket>
      </Item>
      <Item>
        <rasd:AllocationUnits>byte * 2^20</rasd:AllocationUnits>
        <rasd:Description>Memory Size</rasd:Description>
        <rasd:ElementName>8192MB of memory</rasd:ElementName>
        <rasd:InstanceID>2</rasd:InstanceID>
        <rasd:ResourceType>4</rasd:ResourceType>
        <rasd:VirtualQuantity>8192</rasd:VirtualQuantity>
      </Item>
      <Item>
        <rasd:Address>0</rasd:Address>
        <rasd:Description>SCSI Controller</rasd:Description>
        <rasd:ElementName>SCSI Controller 1</rasd:ElementName>
        <rasd:InstanceID>3</rasd:InstanceID>
        <rasd:ResourceSubType>VirtualSCSI</rasd:ResourceSubType>
        <rasd:ResourceType>6</rasd:ResourceType>
      </Item>
      <Item>
        <rasd:AddressOnParent>0</rasd:AddressOnParent>
        <rasd:ElementName>Hard Disk 1</rasd:ElementName>
        <rasd:HostResource>ovf:/disk/vmdisk1</rasd:HostResource>
        <rasd:InstanceID>4</rasd:InstanceID>
        <rasd:Parent>3</rasd:Parent>
        <rasd:ResourceType>17</rasd:ResourceType>
      </Item>
      <Item>
        <rasd:AddressOnParent>1</rasd:AddressOnParent>
        <rasd:ElementName>Hard Disk 2</rasd:ElementName>
        <rasd:HostResource>ovf:/disk/vmdisk2</rasd:HostResource>
        <rasd:InstanceID>5</rasd:InstanceID>
        <rasd:Parent>3</rasd:Parent>
        <rasd:ResourceType>17</rasd:ResourceType>
      </Item>
      <Item>
        <rasd:Address>00:50:56:aa:bb:01</rasd:Address>
        <rasd:AutomaticAllocation>true</rasd:AutomaticAllocation>
        <rasd:Connection>VM Network</rasd:Connection>
        <rasd:Description>VmxNet3 ethernet adapter on "VM Network"</rasd:Description>
        <rasd:ElementName>Network adapter 1</rasd:ElementName>
        <rasd:InstanceID>6</rasd:InstanceID>
        <rasd:ResourceSubType>VmxNet3</rasd:ResourceSubType>
        <rasd:ResourceType>10</rasd:ResourceType>
      </Item>
      <vmw:Config ovf:required="false" vmw:key="firmware" vmw:value="efi"/>
      <vmw:Config ovf:required="false" vmw:key="cpuHotAddEnabled" vmw:value="true"/>
      <vmw:ExtraConfig ovf:required="false" vmw:key="uefi.secureBoot.enabled" vmw:value="TRUE"/>
    </VirtualHardwareSection>
  </VirtualSystem>
</Envelope>
`;

/** VirtualBox: `vbox:` namespace, `virtualbox-2.2`, a UUID id, `MegaBytes` memory, capacity in bytes. */
export const VIRTUALBOX_OVF = `<?xml version="1.0"?>
<Envelope ovf:version="1.0" xml:lang="en-US" ${ENVELOPE_NS} xmlns:vbox="http://www.virtualbox.org/ovf/machine">
  <References>
    <File ovf:id="file1" ovf:href="ubuntu-disk001.vmdk"/>
  </References>
  <DiskSection>
    <Info>List of the virtual disks used in the package</Info>
    <Disk ovf:capacity="10737418240" ovf:diskId="vmdisk1" ovf:fileRef="file1" ovf:format="http://www.vmware.com/interfaces/specifications/vmdk.html#streamOptimized" vbox:uuid="d3c4a0a6-3b2f-4c6e-9d7d-6a0f2a6e8b11"/>
  </DiskSection>
  <NetworkSection>
    <Info>Logical networks used in the package</Info>
    <Network ovf:name="NAT">
      <Description>Logical network used by this appliance.</Description>
    </Network>
  </NetworkSection>
  <VirtualSystem ovf:id="6f0a2d8c-1b3e-4f5a-9c7d-8e9f0a1b2c3d">
    <Info>A virtual machine</Info>
    <OperatingSystemSection ovf:id="94">
      <Info>The kind of installed guest operating system</Info>
      <Description>Ubuntu_64</Description>
      <vbox:OSType ovf:required="false">Ubuntu_64</vbox:OSType>
    </OperatingSystemSection>
    <Name>ubuntu</Name>
    <VirtualHardwareSection>
      <Info>Virtual hardware requirements for a virtual machine</Info>
      <System>
        <vssd:ElementName>Virtual Hardware Family</vssd:ElementName>
        <vssd:InstanceID>0</vssd:InstanceID>
        <vssd:VirtualSystemIdentifier>ubuntu</vssd:VirtualSystemIdentifier>
        <vssd:VirtualSystemType>virtualbox-2.2</vssd:VirtualSystemType>
      </System>
      <Item>
        <rasd:Caption>2 virtual CPU</rasd:Caption>
        <rasd:Description>Number of virtual CPUs</rasd:Description>
        <rasd:ElementName>2 virtual CPU</rasd:ElementName>
        <rasd:InstanceID>1</rasd:InstanceID>
        <rasd:ResourceType>3</rasd:ResourceType>
        <rasd:VirtualQuantity>2</rasd:VirtualQuantity>
      </Item>
      <Item>
        <rasd:AllocationUnits>MegaBytes</rasd:AllocationUnits>
        <rasd:Caption>2048 MB of memory</rasd:Caption>
        <rasd:ElementName>2048 MB of memory</rasd:ElementName>
        <rasd:InstanceID>2</rasd:InstanceID>
        <rasd:ResourceType>4</rasd:ResourceType>
        <rasd:VirtualQuantity>2048</rasd:VirtualQuantity>
      </Item>
      <Item>
        <rasd:AutomaticAllocation>true</rasd:AutomaticAllocation>
        <rasd:Connection>NAT</rasd:Connection>
        <rasd:ElementName>Ethernet adapter on 'NAT'</rasd:ElementName>
        <rasd:InstanceID>3</rasd:InstanceID>
        <rasd:ResourceSubType>E1000</rasd:ResourceSubType>
        <rasd:ResourceType>10</rasd:ResourceType>
      </Item>
      <Item>
        <rasd:ElementName>disk1</rasd:ElementName>
        <rasd:HostResource>/disk/vmdisk1</rasd:HostResource>
        <rasd:InstanceID>4</rasd:InstanceID>
        <rasd:ResourceType>17</rasd:ResourceType>
      </Item>
    </VirtualHardwareSection>
  </VirtualSystem>
</Envelope>
`;

/** XenServer: the Citrix namespace, `xen-3.0`, `byte * 2^20` memory, `KiloBytes` capacity. */
export const XEN_OVF = `<?xml version="1.0" encoding="utf-8"?>
<ovf:Envelope xmlns:ovf="http://schemas.dmtf.org/ovf/envelope/1" xmlns:xenovf="http://schemas.citrix.com/ovf/envelope/1" xmlns:rasd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_ResourceAllocationSettingData" xmlns:vssd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_VirtualSystemSettingData" ovf:version="1.0.0">
  <ovf:References>
    <ovf:File ovf:id="file-xen" ovf:href="xen-disk.vhd"/>
  </ovf:References>
  <ovf:DiskSection>
    <ovf:Info>disks</ovf:Info>
    <ovf:Disk ovf:diskId="xd1" ovf:fileRef="file-xen" ovf:capacity="4194304" ovf:capacityAllocationUnits="KiloBytes" ovf:format="http://technet.microsoft.com/en-us/virtualserver/bb676673.aspx"/>
  </ovf:DiskSection>
  <ovf:NetworkSection>
    <ovf:Info>networks</ovf:Info>
    <ovf:Network ovf:name="Pool-wide network associated with eth0"/>
  </ovf:NetworkSection>
  <ovf:VirtualSystem ovf:id="xen-vm">
    <ovf:Info>XenServer VM</ovf:Info>
    <ovf:Name>xen-vm</ovf:Name>
    <ovf:OperatingSystemSection ovf:id="79">
      <ovf:Info>os</ovf:Info>
    </ovf:OperatingSystemSection>
    <ovf:VirtualHardwareSection>
      <ovf:Info>hardware</ovf:Info>
      <ovf:System>
        <vssd:VirtualSystemType>xen-3.0-unknown</vssd:VirtualSystemType>
      </ovf:System>
      <ovf:Item>
        <rasd:ElementName>cpu</rasd:ElementName>
        <rasd:InstanceID>1</rasd:InstanceID>
        <rasd:ResourceType>3</rasd:ResourceType>
        <rasd:VirtualQuantity>1</rasd:VirtualQuantity>
      </ovf:Item>
      <ovf:Item>
        <rasd:AllocationUnits>byte * 2^20</rasd:AllocationUnits>
        <rasd:ElementName>memory</rasd:ElementName>
        <rasd:InstanceID>2</rasd:InstanceID>
        <rasd:ResourceType>4</rasd:ResourceType>
        <rasd:VirtualQuantity>1024</rasd:VirtualQuantity>
      </ovf:Item>
      <ovf:Item>
        <rasd:Address>aa:bb:cc:00:00:01</rasd:Address>
        <rasd:Connection>Pool-wide network associated with eth0</rasd:Connection>
        <rasd:ElementName>nic0</rasd:ElementName>
        <rasd:InstanceID>3</rasd:InstanceID>
        <rasd:ResourceType>10</rasd:ResourceType>
      </ovf:Item>
      <ovf:Item>
        <rasd:ElementName>disk0</rasd:ElementName>
        <rasd:HostResource>ovf:/disk/xd1</rasd:HostResource>
        <rasd:InstanceID>4</rasd:InstanceID>
        <rasd:ResourceType>19</rasd:ResourceType>
      </ovf:Item>
    </ovf:VirtualHardwareSection>
  </ovf:VirtualSystem>
</ovf:Envelope>
`;

/** oVirt/RHV: the `ovirt:` namespace, `RHEVM` system type, `byte * 2^30` capacity. */
export const OVIRT_OVF = `<?xml version="1.0" encoding="UTF-8"?>
<ovf:Envelope xmlns:ovf="http://schemas.dmtf.org/ovf/envelope/1/" xmlns:ovirt="http://www.ovirt.org/ovf" xmlns:rasd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_ResourceAllocationSettingData" xmlns:vssd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_VirtualSystemSettingData" ovf:version="4.4.0.0">
  <References>
    <File ovf:href="0b1d2c3e-aaaa-bbbb-cccc-000000000001/0b1d2c3e-aaaa-bbbb-cccc-000000000002" ovf:id="0b1d2c3e-aaaa-bbbb-cccc-000000000002" ovf:size="1073741824"/>
  </References>
  <DiskSection>
    <Info>List of Virtual Disks</Info>
    <Disk ovf:diskId="0b1d2c3e-aaaa-bbbb-cccc-000000000002" ovf:size="20" ovf:capacity="20" ovf:capacityAllocationUnits="byte * 2^30" ovf:fileRef="0b1d2c3e-aaaa-bbbb-cccc-000000000002" ovf:format="http://www.gnome.org/~markmc/qcow-image-format.html"/>
  </DiskSection>
  <NetworkSection>
    <Info>networks</Info>
    <Network ovf:name="ovirtmgmt"/>
  </NetworkSection>
  <VirtualSystem ovf:id="1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b">
    <Name>rhv-vm</Name>
    <OperatingSystemSection ovf:id="1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b" ovf:osType="rhel_8x64">
      <Info>Guest Operating System</Info>
    </OperatingSystemSection>
    <VirtualHardwareSection>
      <Info>2 CPU, 4096 Memory</Info>
      <System>
        <vssd:VirtualSystemType>RHEVM 4.6.0.0</vssd:VirtualSystemType>
      </System>
      <Item>
        <rasd:ResourceType>3</rasd:ResourceType>
        <rasd:VirtualQuantity>2</rasd:VirtualQuantity>
      </Item>
      <Item>
        <rasd:AllocationUnits>MegaBytes</rasd:AllocationUnits>
        <rasd:ResourceType>4</rasd:ResourceType>
        <rasd:VirtualQuantity>4096</rasd:VirtualQuantity>
      </Item>
      <Item>
        <rasd:ResourceType>17</rasd:ResourceType>
        <rasd:HostResource>ovf:/disk/0b1d2c3e-aaaa-bbbb-cccc-000000000002</rasd:HostResource>
      </Item>
      <Item>
        <rasd:ResourceType>10</rasd:ResourceType>
        <rasd:Connection>ovirtmgmt</rasd:Connection>
        <rasd:ElementName>nic1</rasd:ElementName>
        <rasd:MACAddress>56:6f:00:00:00:01</rasd:MACAddress>
      </Item>
    </VirtualHardwareSection>
  </VirtualSystem>
</ovf:Envelope>
`;

/** Two systems in a `VirtualSystemCollection`, each with its own disk, and a disk listed before its file. */
export const COLLECTION_OVF = `<?xml version="1.0"?>
<Envelope ${ENVELOPE_NS}>
  <References>
    <File ovf:id="f-db" ovf:href="db.vmdk"/>
    <File ovf:id="f-app" ovf:href="app.vmdk"/>
  </References>
  <DiskSection>
    <Disk ovf:diskId="d-app" ovf:fileRef="f-app" ovf:capacity="1" ovf:capacityAllocationUnits="byte * 2^30"/>
    <Disk ovf:diskId="d-db" ovf:fileRef="f-db" ovf:capacity="524288" ovf:capacityAllocationUnits="KiloBytes"/>
  </DiskSection>
  <NetworkSection>
    <Network ovf:name="front"/>
    <Network ovf:name="back"/>
  </NetworkSection>
  <VirtualSystemCollection ovf:id="stack">
    <Info>A two-tier stack</Info>
    <VirtualSystem ovf:id="app">
      <Name>app</Name>
      <VirtualHardwareSection>
        <Item><rasd:ResourceType>3</rasd:ResourceType><rasd:VirtualQuantity>1</rasd:VirtualQuantity></Item>
        <Item><rasd:AllocationUnits>byte * 2^30</rasd:AllocationUnits><rasd:ResourceType>4</rasd:ResourceType><rasd:VirtualQuantity>2</rasd:VirtualQuantity></Item>
        <Item><rasd:ResourceType>10</rasd:ResourceType><rasd:Connection>front</rasd:Connection><rasd:ElementName>eth0</rasd:ElementName></Item>
        <Item><rasd:ResourceType>17</rasd:ResourceType><rasd:HostResource>ovf:/disk/d-app</rasd:HostResource></Item>
      </VirtualHardwareSection>
    </VirtualSystem>
    <VirtualSystem ovf:id="db">
      <Name>db</Name>
      <VirtualHardwareSection>
        <Item><rasd:ResourceType>3</rasd:ResourceType><rasd:VirtualQuantity>2</rasd:VirtualQuantity></Item>
        <Item><rasd:AllocationUnits>KiloBytes</rasd:AllocationUnits><rasd:ResourceType>4</rasd:ResourceType><rasd:VirtualQuantity>1048576</rasd:VirtualQuantity></Item>
        <Item><rasd:ResourceType>10</rasd:ResourceType><rasd:Connection>back</rasd:Connection><rasd:ElementName>eth0</rasd:ElementName></Item>
        <Item><rasd:ResourceType>17</rasd:ResourceType><rasd:HostResource>ovf:/disk/d-db</rasd:HostResource></Item>
      </VirtualHardwareSection>
    </VirtualSystem>
  </VirtualSystemCollection>
</Envelope>
`;

/** Two disks but one file: upstream pairs by position and indexes past the end. */
export const FEWER_FILES_OVF = `<?xml version="1.0"?>
<Envelope ${ENVELOPE_NS}>
  <References>
    <File ovf:id="file1" ovf:href="only.vmdk"/>
  </References>
  <DiskSection>
    <Disk ovf:diskId="blank" ovf:capacity="1" ovf:capacityAllocationUnits="byte * 2^30"/>
    <Disk ovf:diskId="data" ovf:fileRef="file1" ovf:capacity="3" ovf:capacityAllocationUnits="byte * 2^30"/>
  </DiskSection>
  <VirtualSystem ovf:id="sparse">
    <Name>sparse</Name>
    <VirtualHardwareSection>
      <Item><rasd:ResourceType>17</rasd:ResourceType><rasd:HostResource>ovf:/disk/blank</rasd:HostResource></Item>
      <Item><rasd:ResourceType>17</rasd:ResourceType><rasd:HostResource>ovf:/disk/data</rasd:HostResource></Item>
    </VirtualHardwareSection>
  </VirtualSystem>
</Envelope>
`;

/** A `${disk.size}` capacity with no property value. */
export const UNRESOLVED_PROPERTY_OVF = `<?xml version="1.0"?>
<Envelope ${ENVELOPE_NS}>
  <References><File ovf:id="file1" ovf:href="p.vmdk"/></References>
  <DiskSection><Disk ovf:diskId="d1" ovf:fileRef="file1" ovf:capacity="\${disk.size}"/></DiskSection>
  <VirtualSystem ovf:id="templated"><Name>templated</Name></VirtualSystem>
</Envelope>
`;

/** Not well-formed: an unclosed element. */
export const MALFORMED_OVF = `<?xml version="1.0"?>
<Envelope ${ENVELOPE_NS}>
  <VirtualSystem ovf:id="broken"><Name>broken</Name>
</Envelope>
`;

/** A `${vm.owner}` placeholder without value in a description: text, not a number. */
export const TEXT_PLACEHOLDER_OVF = `<?xml version="1.0"?>
<Envelope ${ENVELOPE_NS}>
  <References><File ovf:id="file1" ovf:href="t.vmdk"/></References>
  <DiskSection><Disk ovf:diskId="d1" ovf:fileRef="file1" ovf:capacity="1073741824"/></DiskSection>
  <NetworkSection><Network ovf:name="lan"><Description>Owned by \${vm.owner}</Description></Network></NetworkSection>
  <VirtualSystem ovf:id="texty"><Name>texty</Name>
    <VirtualHardwareSection>
      <Item><rasd:Description>CPUs of \${vm.owner}</rasd:Description><rasd:ResourceType>3</rasd:ResourceType><rasd:VirtualQuantity>2</rasd:VirtualQuantity></Item>
      <Item><rasd:ResourceType>17</rasd:ResourceType><rasd:HostResource>ovf:/disk/d1</rasd:HostResource></Item>
    </VirtualHardwareSection>
  </VirtualSystem>
</Envelope>
`;

/** OVF 0.9 (VMware's pre-DMTF format): `<Section xsi:type=…>` and `<Content>`. */
export const OVF_09 = `<?xml version="1.0" encoding="UTF-8"?>
<Envelope xmlns="http://www.vmware.com/schema/ovf/1/envelope" xmlns:ovf="http://www.vmware.com/schema/ovf/1/envelope" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <References><File ovf:href="old.vmdk" ovf:id="file1"/></References>
  <Section xsi:type="ovf:DiskSection_Type"><Info>disks</Info><Disk ovf:capacity="8" ovf:diskId="vmdisk1" ovf:fileRef="file1"/></Section>
  <Content ovf:id="old-vm" xsi:type="ovf:VirtualSystem_Type"><Info>A VM</Info><Name>old-vm</Name></Content>
</Envelope>
`;

/**
 * A DeploymentOptionSection (small, default large) whose CPU and memory items differ per
 * configuration, the large ones first; and a delta disk (`ovf:parentRef`) over its base.
 */
export const DEPLOYMENT_OPTIONS_OVF = `<?xml version="1.0"?>
<Envelope ${ENVELOPE_NS}>
  <References>
    <File ovf:id="base" ovf:href="base.vmdk"/>
    <File ovf:id="delta" ovf:href="delta.vmdk"/>
  </References>
  <DiskSection>
    <Disk ovf:diskId="d-base" ovf:fileRef="base" ovf:capacity="4" ovf:capacityAllocationUnits="byte * 2^30"/>
    <Disk ovf:diskId="d-delta" ovf:fileRef="delta" ovf:parentRef="d-base" ovf:capacity="4" ovf:capacityAllocationUnits="byte * 2^30"/>
  </DiskSection>
  <DeploymentOptionSection>
    <Info>Sizes</Info>
    <Configuration ovf:id="small"><Label>Small</Label><Description>2 CPUs</Description></Configuration>
    <Configuration ovf:id="large" ovf:default="true"><Label>Large</Label><Description>8 CPUs</Description></Configuration>
  </DeploymentOptionSection>
  <VirtualSystem ovf:id="sized"><Name>sized</Name>
    <VirtualHardwareSection>
      <Item ovf:configuration="large"><rasd:ResourceType>3</rasd:ResourceType><rasd:VirtualQuantity>8</rasd:VirtualQuantity></Item>
      <Item ovf:configuration="large"><rasd:AllocationUnits>byte * 2^20</rasd:AllocationUnits><rasd:ResourceType>4</rasd:ResourceType><rasd:VirtualQuantity>16384</rasd:VirtualQuantity></Item>
      <Item ovf:configuration="small"><rasd:ResourceType>3</rasd:ResourceType><rasd:VirtualQuantity>2</rasd:VirtualQuantity></Item>
      <Item ovf:configuration="small"><rasd:AllocationUnits>byte * 2^20</rasd:AllocationUnits><rasd:ResourceType>4</rasd:ResourceType><rasd:VirtualQuantity>2048</rasd:VirtualQuantity></Item>
      <Item><rasd:ResourceType>17</rasd:ResourceType><rasd:HostResource>ovf:/disk/d-delta</rasd:HostResource></Item>
    </VirtualHardwareSection>
  </VirtualSystem>
</Envelope>
`;
